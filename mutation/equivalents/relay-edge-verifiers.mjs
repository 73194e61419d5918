// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the entries quote source lines, template placeholders included
// relay.edge × the webhook verifiers (pair `relay-edge-verifiers`): Discord, Twilio and WeCom in
// packages/relay/src/edge/{verifiers,verifiers-wecom}.ts, after the cases of edge-verifiers.json added with
// relay.edge 1.1.0. The suite hands each verifier a request built from the fixture (method, absolute URL,
// Headers, body bytes) and options of the interface's types, and compares the result or the refusal code.

const PAIRS = ['relay-edge-verifiers'];
const VERIFIERS = 'packages/relay/src/edge/verifiers.ts';
const WECOM = 'packages/relay/src/edge/verifiers-wecom.ts';

/** Entries at `[code, column]` spots of exactly quoted lines, sharing everything else. */
function atSpots(common, spots) {
  return spots.map(([code, column]) => ({ ...common, code, exact: true, column }));
}

/** Entries on exactly quoted lines, sharing everything else. */
function onLines(common, codes) {
  return codes.map((code) => ({ ...common, code, exact: true }));
}

/** What a refusal says besides its code. */
const WORDS =
  "what a verifier's refusal says besides its code (its message, the path it names, the cause it keeps): the suite compares the refusal code through errorCode, which relay contract §6 and edge-verifiers.json fix; the wording and which field a diagnostic names are the SDK's";

/** Buffer.from, Hash#update and Hmac#update read an empty encoding name as UTF-8. */
const SAME_ENCODING =
  "an empty encoding name: Node's Buffer.from and Hash/Hmac update read '' as UTF-8, the encoding written there; where the original says latin1 the text is 40 ASCII hex characters (the signature passed the 40-hex check, the expected value is a hex digest), whose bytes are the same in both";

/** Type checks of what the interface hands over with its type. */
const TYPED =
  "a check of a value's JavaScript type that the suite's interface always satisfies: the adapter hands the options as an object, the Discord key, Twilio Auth Token, WeCom token, corp id, EncodingAESKey, reply message and nonce as strings, the clock and skew as finite numbers (fixture numbers, which the fixture reader requires to be finite), the request as an object with a string method and URL, a Headers and a Uint8Array; the checks of their values (empty, negative, fractional, out of range, not hex, not 43 base64 characters, unpaired surrogate, bad nonce, 15 random bytes) are killed by the arguments cases";

/** Defaults for what the interface always passes. */
const ALWAYS_GIVEN =
  "the default for an option the interface always passes: EdgeVerifierClock.now is required (the verifiers never read the real clock in the suite), and EdgeWeComReplyOptions carries the reply's nonce and random bytes, so the fresh nonce or random bytes are never drawn";

export default [
  ...atSpots({ pairs: PAIRS, file: WECOM, mutators: ['StringLiteral', 'ObjectLiteral'], reason: WORDS }, [
    ["throw new RelayError('decrypt_failed', `${path} is not base64 of whole AES blocks`, { path });", 44],
    ["throw new RelayError('decrypt_failed', `${path} is not base64 of whole AES blocks`, { path });", 89],
    ["throw new RelayError('decrypt_failed', `${path} has bad padding`, { path });", 44],
    ["throw new RelayError('decrypt_failed', `${path} has bad padding`, { path });", 71],
    [
      "if (end < headerEnd) throw new RelayError('decrypt_failed', `${path} is too short for a message`, { path });",
      63,
    ],
    [
      "if (end < headerEnd) throw new RelayError('decrypt_failed', `${path} is too short for a message`, { path });",
      101,
    ],
    ["throw new RelayError('decrypt_failed', `${path} has a message length past its end`, { path });", 44],
    ["throw new RelayError('decrypt_failed', `${path} has a message length past its end`, { path });", 89],
    ["throw new RelayError('corp_id_mismatch', `${path} is addressed to another corp id`, { path });", 46],
    ["throw new RelayError('corp_id_mismatch', `${path} is addressed to another corp id`, { path });", 89],
    ["throw new RelayError('decrypt_failed', `${path} holds a message that is not UTF-8`, { path });", 44],
    ["throw new RelayError('decrypt_failed', `${path} holds a message that is not UTF-8`, { path });", 89],
    ["assertNonEmptyString(token, 'token');", 31],
    ["assertNonEmptyString(corpId, 'corpId');", 32],
    ["'encodingAesKey must be 43 base64 characters (WeCom EncodingAESKey)',", 7],
    ["{ path: 'encodingAesKey' },", 7],
    ["{ path: 'encodingAesKey' },", 15],
    [
      "throw new RelayError('malformed_body', `the body has ${found.length} <Encrypt> elements, not one`, {",
      44,
    ],
    [
      "throw new RelayError('malformed_body', `the body has ${found.length} <Encrypt> elements, not one`, {",
      104,
    ],
    ["path: 'body',", 13],
    ["throw new RelayError('malformed_body', 'the <Encrypt> element is empty', { path: 'body' });", 44],
    ["throw new RelayError('malformed_body', 'the <Encrypt> element is empty', { path: 'body' });", 78],
    ["throw new RelayError('malformed_body', 'the <Encrypt> element is empty', { path: 'body' });", 86],
    ["throw new RelayError('malformed_body', 'the <Encrypt> element is not closed', { path: 'body' });", 46],
    ["throw new RelayError('malformed_body', 'the <Encrypt> element is not closed', { path: 'body' });", 85],
    ["throw new RelayError('malformed_body', 'the <Encrypt> element is not closed', { path: 'body' });", 93],
    ["throw new RelayError('malformed_body', 'the <Encrypt> element is not closed', { path: 'body' });", 44],
    ["throw new RelayError('malformed_body', 'the <Encrypt> element is not closed', { path: 'body' });", 83],
    ["throw new RelayError('malformed_body', 'the <Encrypt> element is not closed', { path: 'body' });", 91],
    [
      "throw new RelayError('malformed_body', `the body has an unterminated section (no ${terminator})`, {",
      44,
    ],
    [
      "throw new RelayError('malformed_body', `the body has an unterminated section (no ${terminator})`, {",
      103,
    ],
    ["throw new RelayError('malformed_request', `WeCom sends GET and POST callbacks, not ${method}`, {", 47],
    ["throw new RelayError('malformed_request', `WeCom sends GET and POST callbacks, not ${method}`, {", 100],
    ["path: 'method',", 13],
    [
      "throw new RelayError('missing_signature', 'no msg_signature parameter', { path: 'msg_signature' });",
      47,
    ],
    [
      "throw new RelayError('missing_signature', 'no msg_signature parameter', { path: 'msg_signature' });",
      77,
    ],
    [
      "throw new RelayError('missing_signature', 'no msg_signature parameter', { path: 'msg_signature' });",
      85,
    ],
    ["throw new RelayError('missing_timestamp', 'no timestamp parameter', { path: 'timestamp' });", 47],
    ["throw new RelayError('missing_timestamp', 'no timestamp parameter', { path: 'timestamp' });", 73],
    ["throw new RelayError('missing_timestamp', 'no timestamp parameter', { path: 'timestamp' });", 81],
    [
      "if (nonce === undefined) throw new RelayError('malformed_request', 'no nonce parameter', { path: 'nonce' });",
      70,
    ],
    [
      "if (nonce === undefined) throw new RelayError('malformed_request', 'no nonce parameter', { path: 'nonce' });",
      92,
    ],
    [
      "if (nonce === undefined) throw new RelayError('malformed_request', 'no nonce parameter', { path: 'nonce' });",
      100,
    ],
    ["throw new RelayError('malformed_signature', 'msg_signature must be 40 hex characters', {", 49],
    ["throw new RelayError('malformed_signature', 'msg_signature must be 40 hex characters', {", 92],
    ["path: 'msg_signature',", 13],
    ["const timestamp = freshTimestamp(timestampText, now, maxSkew, 'timestamp');", 65],
    ["const path = isUrlVerification ? 'echostr' : 'Encrypt';", 36],
    ["const path = isUrlVerification ? 'echostr' : 'Encrypt';", 48],
    ["throw new RelayError('malformed_request', 'no echostr parameter', { path: 'echostr' });", 47],
    ["throw new RelayError('malformed_request', 'no echostr parameter', { path: 'echostr' });", 71],
    ["throw new RelayError('malformed_request', 'no echostr parameter', { path: 'echostr' });", 79],
    ["throw new RelayError('malformed_body', 'the body is not well-formed UTF-8', { path: 'body' });", 44],
    ["throw new RelayError('malformed_body', 'the body is not well-formed UTF-8', { path: 'body' });", 81],
    ["throw new RelayError('malformed_body', 'the body is not well-formed UTF-8', { path: 'body' });", 89],
    ["throw new RelayError('bad_signature', 'the callback is not signed with this token', {", 43],
    ["throw new RelayError('bad_signature', 'the callback is not signed with this token', {", 89],
    ["throw new RelayError('invalid_argument', 'message must be a string with no unpaired surrogate', {", 46],
    [
      "throw new RelayError('invalid_argument', 'message must be a string with no unpaired surrogate', {",
      101,
    ],
    ["path: 'message',", 13],
    ["const timestamp = String(unixSeconds(options.timestamp, 'timestamp'));", 59],
    ["throw new RelayError('invalid_argument', 'nonce must be 1 to 64 ASCII letters and digits', {", 46],
    ["throw new RelayError('invalid_argument', 'nonce must be 1 to 64 ASCII letters and digits', {", 96],
    ["path: 'nonce',", 13],
    [
      "throw new RelayError('invalid_argument', `random must be 16 bytes, got ${describeType(random)}`, {",
      46,
    ],
    [
      "throw new RelayError('invalid_argument', `random must be 16 bytes, got ${describeType(random)}`, {",
      102,
    ],
    ["path: 'random',", 13],
  ]),
  ...atSpots({ pairs: PAIRS, file: VERIFIERS, mutators: ['StringLiteral', 'ObjectLiteral'], reason: WORDS }, [
    [
      "throw new RelayError('invalid_argument', `${path} must be a non-empty string, got ${got}`, { path });",
      46,
    ],
    [
      "throw new RelayError('invalid_argument', `${path} must be a non-empty string, got ${got}`, { path });",
      96,
    ],
    [
      "`maxSkewSeconds must be a safe integer ≥ 0, got ${typeof value === 'number' ? value : describeType(value)}`,",
      7,
    ],
    [
      "`maxSkewSeconds must be a safe integer ≥ 0, got ${typeof value === 'number' ? value : describeType(value)}`,",
      74,
    ],
    ["{ path: 'maxSkewSeconds' },", 7],
    ["{ path: 'maxSkewSeconds' },", 15],
    ["export function unixSeconds(now: unknown, path = 'now'): number {", 50],
    [
      "`${path} must be a finite, non-negative number of unix seconds, got ${typeof now === 'number' ? now : describeType(now)}`,",
      7,
    ],
    [
      "`${path} must be a finite, non-negative number of unix seconds, got ${typeof now === 'number' ? now : describeType(now)}`,",
      92,
    ],
    ['{ path },', 7],
    ["throw new RelayError('malformed_body', 'the body is not well-formed UTF-8', { path: 'body' });", 44],
    ["throw new RelayError('malformed_body', 'the body is not well-formed UTF-8', { path: 'body' });", 81],
    ["throw new RelayError('malformed_body', 'the body is not well-formed UTF-8', { path: 'body' });", 89],
    ["throw new RelayError('malformed_body', 'the body is not JSON', { path: 'body', cause: error });", 44],
    ["throw new RelayError('malformed_body', 'the body is not JSON', { path: 'body', cause: error });", 68],
    ["throw new RelayError('malformed_body', 'the body is not JSON', { path: 'body', cause: error });", 76],
    ["throw new RelayError('invalid_argument', 'request.method must be a non-empty string', {", 46],
    ["throw new RelayError('invalid_argument', 'request.method must be a non-empty string', {", 91],
    ["path: 'request.method',", 13],
    [
      "throw new RelayError('invalid_argument', 'request.url must be an absolute URL', { path: 'request.url' });",
      46,
    ],
    [
      "throw new RelayError('invalid_argument', 'request.url must be an absolute URL', { path: 'request.url' });",
      85,
    ],
    [
      "throw new RelayError('invalid_argument', 'request.url must be an absolute URL', { path: 'request.url' });",
      93,
    ],
    [
      "throw new RelayError('malformed_timestamp', `${path} must be unix seconds in decimal digits`, { path });",
      49,
    ],
    [
      "throw new RelayError('malformed_timestamp', `${path} must be unix seconds in decimal digits`, { path });",
      99,
    ],
    ['`${path} ${timestamp} is more than ${maxSkew} s away from the clock (${now})`,', 7],
    ["throw new RelayError('missing_signature', `no ${DISCORD_SIGNATURE_HEADER} header`, {", 47],
    ["throw new RelayError('missing_signature', `no ${DISCORD_SIGNATURE_HEADER} header`, {", 88],
    ["throw new RelayError('missing_timestamp', `no ${DISCORD_TIMESTAMP_HEADER} header`, {", 47],
    ["throw new RelayError('missing_timestamp', `no ${DISCORD_TIMESTAMP_HEADER} header`, {", 88],
    [
      "throw new RelayError('malformed_signature', `${DISCORD_SIGNATURE_HEADER} must be 128 hex characters`, {",
      49,
    ],
    [
      "throw new RelayError('malformed_signature', `${DISCORD_SIGNATURE_HEADER} must be 128 hex characters`, {",
      107,
    ],
    ["throw new RelayError('bad_signature', 'the interaction is not signed by this application', {", 43],
    ["throw new RelayError('bad_signature', 'the interaction is not signed by this application', {", 96],
    ["assertNonEmptyString(publicKey, 'publicKey');", 35],
    ["throw new RelayError('invalid_argument', 'publicKey must be 64 hex characters (32 bytes)', {", 46],
    ["throw new RelayError('invalid_argument', 'publicKey must be 64 hex characters (32 bytes)', {", 96],
    ["path: 'publicKey',", 13],
    ["throw new RelayError('malformed_body', 'the interaction is not a JSON object', { path: 'body' });", 44],
    ["throw new RelayError('malformed_body', 'the interaction is not a JSON object', { path: 'body' });", 84],
    ["throw new RelayError('malformed_body', 'the interaction is not a JSON object', { path: 'body' });", 92],
    [
      "throw new RelayError('malformed_body', 'the interaction has no integer type', { path: 'body.type' });",
      44,
    ],
    [
      "throw new RelayError('malformed_body', 'the interaction has no integer type', { path: 'body.type' });",
      83,
    ],
    [
      "throw new RelayError('malformed_body', 'the interaction has no integer type', { path: 'body.type' });",
      91,
    ],
    ["assertNonEmptyString(options.authToken, 'authToken');", 43],
    ["throw new RelayError('missing_signature', `no ${TWILIO_SIGNATURE_HEADER} header`, {", 47],
    ["throw new RelayError('missing_signature', `no ${TWILIO_SIGNATURE_HEADER} header`, {", 87],
    ['`${TWILIO_SIGNATURE_HEADER} must be the base64 of a 20-byte HMAC-SHA1`,', 7],
    ['{ path: TWILIO_SIGNATURE_HEADER },', 7],
    ["throw new RelayError('bad_signature', 'the request is not signed with this Auth Token', {", 43],
    ["throw new RelayError('bad_signature', 'the request is not signed with this Auth Token', {", 93],
    ["`the body's SHA-256 is not the signed ${TWILIO_BODY_HASH_PARAM}`,", 7],
    ['{ path: TWILIO_BODY_HASH_PARAM },', 7],
    ["const mediaType = (headers.get('content-type') ?? '').split(';', 1)[0]!.trim().toLowerCase();", 53],
    ["`a ${mediaType || 'untyped'} body without ${TWILIO_BODY_HASH_PARAM} is covered by no signature`,", 7],
    ["`a ${mediaType || 'untyped'} body without ${TWILIO_BODY_HASH_PARAM} is covered by no signature`,", 25],
    ["{ path: 'body' },", 7],
    ["{ path: 'body' },", 15],
  ]),
  // The parts of a message that describe the refused value (what it got, which media type).
  ...atSpots(
    {
      pairs: PAIRS,
      file: VERIFIERS,
      mutators: ['ConditionalExpression', 'EqualityOperator', 'LogicalOperator'],
      reason: WORDS,
    },
    [
      [
        "`maxSkewSeconds must be a safe integer ≥ 0, got ${typeof value === 'number' ? value : describeType(value)}`,",
        57,
      ],
      [
        "`${path} must be a finite, non-negative number of unix seconds, got ${typeof now === 'number' ? now : describeType(now)}`,",
        77,
      ],
      [
        "`a ${mediaType || 'untyped'} body without ${TWILIO_BODY_HASH_PARAM} is covered by no signature`,",
        12,
      ],
    ],
  ),
  ...onLines({ pairs: PAIRS, file: VERIFIERS, reason: WORDS }, [
    "const got = typeof value === 'string' ? 'an empty string' : describeType(value);",
  ]),
  ...onLines({ pairs: PAIRS, file: WECOM, mutators: ['StringLiteral'], reason: SAME_ENCODING }, [
    "const receiveId = Buffer.from(secrets.corpId, 'utf8');",
    "return createHash('sha1').update(text, 'utf8').digest('hex');",
    "if (!bytesEqual(Buffer.from(expected, 'latin1'), Buffer.from(signature.toLowerCase(), 'latin1'))) {",
    "const encrypt = encryptWeComPayload(Buffer.from(message, 'utf8'), secrets, random);",
  ]),
  ...onLines({ pairs: PAIRS, file: VERIFIERS, mutators: ['StringLiteral'], reason: SAME_ENCODING }, [
    "const signed = Buffer.concat([Buffer.from(timestampText, 'utf8'), body]);",
    "if (!bytesEqual(Buffer.from(bodyHash, 'utf8'), Buffer.from(actual, 'utf8'))) {",
    "const expected = createHmac('sha1', authToken).update(twilioSignedText(variant, params), 'utf8').digest();",
  ]),
  // Type checks the interface always passes (their value checks are killed by the arguments cases).
  {
    pairs: PAIRS,
    file: VERIFIERS,
    span: {
      from: 'export function assertOptions(',
      until: '/** Throws `invalid_argument` unless `value` is a non-empty string. */',
    },
    reason: TYPED,
  },
  {
    pairs: PAIRS,
    file: VERIFIERS,
    span: {
      from: "if (typeof request !== 'object' || request === null) {",
      until: 'const { method, url, headers, body } =',
    },
    reason: TYPED,
  },
  {
    pairs: PAIRS,
    file: VERIFIERS,
    span: { from: 'if (!(headers instanceof Headers)) {', until: 'const parsed = URL.canParse(url)' },
    reason: TYPED,
  },
  ...onLines(
    {
      pairs: PAIRS,
      file: VERIFIERS,
      mutators: ['ConditionalExpression'],
      replacement: 'false',
      reason: TYPED,
    },
    [
      "if (typeof value !== 'string' || value === '') {",
      "if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {",
      "if (typeof now !== 'number' || !Number.isFinite(now) || now < 0 || now > Number.MAX_SAFE_INTEGER) {",
      "if (typeof method !== 'string' || method === '') {",
    ],
  ),
  {
    pairs: PAIRS,
    file: VERIFIERS,
    code: "if (typeof now !== 'number' || !Number.isFinite(now) || now < 0 || now > Number.MAX_SAFE_INTEGER) {",
    exact: true,
    mutators: ['LogicalOperator'],
    replacement: "typeof now !== 'number' && !Number.isFinite(now)",
    reason: TYPED,
  },
  ...onLines(
    { pairs: PAIRS, file: WECOM, mutators: ['ConditionalExpression'], replacement: 'false', reason: TYPED },
    [
      "if (typeof encodingAesKey !== 'string' || !ENCODING_AES_KEY.test(encodingAesKey)) {",
      "if (typeof message !== 'string' || UNPAIRED_SURROGATE.test(message)) {",
      "if (typeof nonce !== 'string' || !NONCE.test(nonce)) {",
    ],
  ),
  {
    pairs: PAIRS,
    file: VERIFIERS,
    code: 'if (now === undefined) return Math.floor(Date.now() / 1000);',
    exact: true,
    mutators: ['ConditionalExpression', 'ArithmeticOperator'],
    reason: ALWAYS_GIVEN,
  },
  ...onLines(
    {
      pairs: PAIRS,
      file: WECOM,
      mutators: ['ConditionalExpression'],
      replacement: 'false',
      reason: ALWAYS_GIVEN,
    },
    [
      'if (nonce === undefined) return String(randomInt(1_000_000_000, 10_000_000_000));',
      'if (random === undefined) return randomBytes(16);',
    ],
  ),
  // Checks that a later check answers with the same code.
  {
    pairs: PAIRS,
    file: WECOM,
    code: 'if (cipherText === undefined || cipherText.length === 0 || cipherText.length % 16 !== 0) {',
    exact: true,
    column: 35,
    mutators: ['ConditionalExpression'],
    reason:
      'a ciphertext that decodes to no bytes never reaches decryption: an empty <Encrypt> is refused as malformed_body and an empty echostr as malformed_request before it, and only the empty text decodes to no bytes',
  },
  {
    pairs: PAIRS,
    file: WECOM,
    code: 'end < 0 ||',
    exact: true,
    mutators: ['ConditionalExpression', 'EqualityOperator'],
    reason:
      'a padding that leaves no bytes (end <= 0) is refused by the next check, "too short for a message" (end < 20), with the same decrypt_failed: padding of 1 to 32 bytes over at least 16 leaves fewer than 20 whenever it leaves none',
  },
  {
    pairs: PAIRS,
    file: WECOM,
    code: 'const close = endOf(xml, CDATA_CLOSE, from + CDATA_OPEN.length);',
    exact: true,
    mutators: ['ArithmeticOperator'],
    reason:
      "where the search for ']]>' starts inside <Encrypt>: the 9 characters before the CDATA opening are the <Encrypt> tag and white space, which hold no ']]>', so the first one found is the same",
  },
  ...onLines(
    {
      pairs: PAIRS,
      file: WECOM,
      mutators: ['EqualityOperator'],
      reason:
        "an index of 0 for a search that starts after a '<' at or past index 0: indexOf answers -1 or an index past the start, never 0",
    },
    ['if (next < 0)', 'if (index < 0)'],
  ),
  {
    pairs: PAIRS,
    file: VERIFIERS,
    code: '} catch {',
    exact: true,
    mutators: ['BlockStatement'],
    reason:
      'an empty catch block: the function then ends and returns undefined, as the return in the block does',
  },
  {
    pairs: PAIRS,
    file: VERIFIERS,
    code: 'if (text === undefined)',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      'a body that is not UTF-8 then reaches JSON.parse(undefined), which throws a SyntaxError that the next lines refuse with the same malformed_body',
  },
  {
    pairs: PAIRS,
    file: VERIFIERS,
    span: { from: 'function discordPublicKey(', until: '/** The parsed body as an interaction' },
    code: 'if (raw === undefined) {',
    exact: true,
    mutators: ['ConditionalExpression', 'BlockStatement'],
    reason:
      'a key that is not 64 hex characters then reaches Buffer.from(undefined) inside the try below, whose catch refuses it with the same invalid_argument (discord-public-key-31-bytes)',
  },
  // The catch of discordPublicKey.
  ...onLines(
    {
      pairs: PAIRS,
      file: VERIFIERS,
      span: { from: 'function discordPublicKey(', until: '/** The parsed body as an interaction' },
      reason:
        'unreachable: createPublicKey takes any 32 bytes as an Ed25519 JWK public key (it checks no point), and discordPublicKey reaches it only with 32 bytes, so the catch and its refusal never run',
    },
    [
      '} catch (error) {',
      "throw new RelayError('invalid_argument', 'publicKey is not an Ed25519 public key', {",
    ],
  ),
  {
    pairs: PAIRS,
    file: VERIFIERS,
    code: "if (typeof value !== 'object' || value === null || Array.isArray(value)) {",
    exact: true,
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'the typeof operand: a JSON primitive that passes on (a string, number or boolean) has no own integer type and is refused by the next check with the same malformed_body; null and arrays are caught by the other operands (discord-signed-body-null, discord-signed-body-array kill the others)',
  },
  {
    pairs: PAIRS,
    file: VERIFIERS,
    code: 'const escaped = text.replace(/[\\u0080-\\u00ff]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);',
    exact: true,
    mutators: ['MethodExpression'],
    replacement: 'toLowerCase()',
    reason: 'the case of the hex digits of a percent-escape: the form decoding reads %c3 as %C3',
  },
  // Twilio's URL variants: what every http(s) URL that parses gives the same.
  ...onLines(
    {
      pairs: PAIRS,
      file: VERIFIERS,
      reason:
        'shapes of URL that never reach the Twilio verifier: request.url is the absolute http or https URL configured in Twilio (a relative one is refused, twilio-relative-url), so it starts with scheme://, holds no white space (an HTTP request target has none), so the pattern always matches at 0 with every group set; the variants always differ (one has a port the other lacks)',
    },
    [
      'const HIERARCHICAL = /^([A-Za-z][A-Za-z0-9+.-]*):\\/\\/([^/?#]*)([\\s\\S]*)$/;',
      'if (match === null) return [url];',
      "const [, scheme = '', authority = '', rest = ''] = match;",
      'return without === withPort ? [without] : [without, withPort];',
    ],
  ),
  {
    pairs: PAIRS,
    file: VERIFIERS,
    code: "const hostEnd = hostPort.startsWith('[') ? hostPort.indexOf(']') + 1 : 0;",
    exact: true,
    column: 39,
    mutators: ['StringLiteral'],
    reason:
      "startsWith(''): then every host takes indexOf(']') + 1, which is 0, the original's value, for a host without brackets (a ']' appears in an http(s) authority only closing an IP literal)",
  },
  {
    pairs: PAIRS,
    file: VERIFIERS,
    code: 'if (colon < 0 || !/^[0-9]*$/.test(hostPort.slice(colon + 1))) return { host: hostPort, port: undefined };',
    exact: true,
    mutators: ['EqualityOperator', 'Regex'],
    reason:
      'a colon at index 0 of the host and port (an empty host, which no http(s) URL that parses has), and the digits test without an anchor: in an http(s) URL that parses, what follows the colon after the host is a port of digits alone or nothing, so the anchored and unanchored tests agree',
  },
  {
    pairs: PAIRS,
    file: VERIFIERS,
    code: 'if (bytesEqual(expected, signature) && match === undefined) match = variant;',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason:
      'which matching URL variant is kept when both match: the signature would have to be the HMAC-SHA1 of two different texts, a collision',
  },
];
