// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the entries quote source lines, template placeholders included
// relay.edge × the edge's webhook handlers and sanitisers (pair `relay-edge-passthrough`):
// packages/relay/src/edge/{passthrough,sanitisers}.ts, after the webhook-handler cases of
// edge-webhooks.json (relay.edge 1.1.0). The suite sets each handler up in the fixture's world through
// RelayEdgeImplementation.{discord,twilio,weCom}WebhookEdge — built by the bundled adapter with the
// SDK factories, usable options, a route table read through tenantResolverFromRegistry, a profile table
// and a relay that records each binding and forward and stores it at once — sends the provider's
// request, and compares the answer (status, body, media type, Allow, `error`) and what was handed to
// the relay; the Discord sanitiser is also reached directly (sanitiseDiscordInteraction).

const PAIRS = ['relay-edge-passthrough'];
const PASSTHROUGH = 'packages/relay/src/edge/passthrough.ts';
const SANITISERS = 'packages/relay/src/edge/sanitisers.ts';

/** Entries that share everything but the line of code (matched as a part of the line). */
function onCodes(common, codes) {
  return codes.map((code) => ({ ...common, code }));
}

/** Entries that share everything but the span. */
function onSpans(common, spans) {
  return spans.map((span) => ({ ...common, span }));
}

/** Entries at `[code, column]` spots, sharing everything else. */
function atSpots(common, spots) {
  return spots.map(([code, column]) => ({ ...common, code, column }));
}

/** The SDK factories' checks of their own options. */
const OPTION_CHECKS =
  "the SDK factories' checks of their own options (an options object, functions for tenantOf/profileOf/onError/now and a relay with forwardPassthrough and bindCapability, a 64-hex public key, non-empty secrets, string bot ids, the dialects, a boolean groupSessionsPerUser, positive integer limits, a registry with route, routeKeysOf a function returning strings, the Discord sanitiser's tenant/dialects/profile/ttl, a Uint8Array body, a string message), which no black-box connector has: the adapter builds every handler with usable options, so a check that no longer refuses, or refuses in other words, is never seen, and one that refuses usable options fails every case of its provider";

/** What an edge refusal says besides its status and error code. */
const WORDS =
  "what an edge refusal says besides its status and `error` code (its message, the path and cause it keeps, the provider or platform its message names): the answer's `message` is free text the contract leaves to the implementation, and the suite compares the status and `error`";

/** Which errors the verifier and sanitiser wrappers turn into refusals. */
const ONLY_REFUSALS =
  'which errors verified() and sanitisedOr400() turn into 401/400 rather than rethrow: with the usable options the adapter passes, a verifier throws only its refusal codes (never invalid_argument) and the sanitisers only sanitiser_malformed_payload, all RelayErrors, so answering every error as the refusal changes no answer';

/** The handoff's timeout and late-failure reporting. */
const HANDOFF_TIMING =
  "how long the provider's answer waits for a relay that is slow to store (handoffTimeoutMs) and where a failure after that goes (onError): the suite's relay stores each binding and forward at once, as a connector's buffer does within the provider's window, so the race is always won by the store; the timeout and the reporter are the SDK's operational settings, which the contract does not fix";

/** A resolver or profile table that answers only strings or null. */
const RESOLVER_ANSWERS =
  "a tenant resolver or profile table answering something other than a non-empty string or null (undefined, '', a number): tenantResolverFromRegistry answers a registry route's tenant or null and the world's profiles are non-empty strings, so these checks and defaults of the SDK's pluggable callbacks are never reached";

/** Route keys that no tenant holds either way. */
const NO_KEY =
  "a route key that cannot be anyone's: an empty key (discordRouteKeys already drops empty ids, and provision registries refuse empty route keys), or, for a Twilio form webhook without To or a WeCom message without ToUserName, an undefined or made-up key instead of none; no tenant holds such a key, so the webhook is answered 404 unknown_tenant either way";

/** Discord sends member only in a guild, user only in a DM. */
const DISCORD_USER_SHAPE =
  "where a DM's user id is read from: Discord sends `member` (with `user`) only for an interaction in a guild, where the guild id alone routes, and a `user` object with every DM interaction, so the member branch, a missing or null user and a user that is not an object are never routed on";

/** Bot ids of webhooks the providers never send. */
const BOT_ID_FALLBACK =
  "the forward's botId for a webhook that lacks the id it is taken from (a Discord interaction whose application_id is not a string, a Twilio webhook without AccountSid, a WeCom message without AgentID): the providers send these with every such event, and the contract fixes no bot id for one without";

/** Answer headers the providers do not read. */
const HYGIENE =
  "the Cache-Control: no-store and X-Content-Type-Options: nosniff headers of a text answer (TwiML, success, the WeCom echo): hardening of the SDK's own; the providers read the status, the body and its type, and the contract fixes nothing else";

/** A null profile and none read the same. */
const NULL_PROFILE =
  'a forward carrying `profile: null` instead of no profile for a tenant without one: passthrough_forward.profile is optional and null is none (the suite, like the gateway, reads both as no profile); a tenant with a profile is checked by the *-with-profile cases';

/** The sanitiser's refusals of a body the verifier already refused. */
const VERIFIED_JSON =
  "the Discord sanitiser's refusals of a body that is not UTF-8 text of one JSON object, and its scanner's 'unterminated' refusals: the Discord verifier refuses such a body (malformed_body, answered 401) before the sanitiser runs, the sanitiser cases hand verified interaction objects, and the scanner runs only after JSON.parse accepted the text, so these cannot fire";

/** Ill-formed XML the WeCom reader is lenient with. */
const XML_WECOM_NEVER_SENDS =
  'what the WeCom reader makes of XML that WeCom never sends: a character reference to a code point XML does not allow (a surrogate, beyond U+10FFFF: not well-formed), or an element mixing a CDATA section with other content or holding two CDATA sections (which this reader does not read as a field either way); the well-formed references, CDATA, entities, comments, prolog, nesting and empty elements are checked by the wecom-* cases';

/** Bounds checked one step further than needed. */
const ONE_PAST_THE_END =
  "a scan that looks one index past the end of the text: there is no '<' or '>' there either (indexOf answers -1, the character is undefined), so the scan ends the same way";

/** A stray entry in the list of root children. */
const STRAY_CHILD =
  'a list of root children that starts with a stray non-element entry: it has no name and no text, so neither the fields, the routing nor the credential removal ever reads it';

/** isSafeInteger implies a number. */
const SAFE_INTEGER_IS_A_NUMBER =
  "dropping the `typeof value === 'number'` guard before Number.isSafeInteger(value), which is false for every value that is not a number";

/** openTag is only called at a '<' or at the end. */
const AT_A_TAG =
  "openTag's check that it starts at '<': every caller calls it at a '<' (elementEnd at the '<' it found) or at the end of the text (after skipMisc), where the name pattern finds nothing either";

/** Parts of the session source no Discord key reads. */
const NOT_IN_KEY =
  "the user_name, scope_id and message_id of a Discord interaction's session source: build_session_key keys a Discord source by its platform, chat type, chat id and user id only (scope_id is read for Slack), so reading them from another member changes no bound key (and the SDK's refusal of an unkeyable one of them is its own strictness)";

/** Profiles that key like none. */
const NO_PROFILE_KEY =
  'stamping a null or empty profile on the newer source, or building the profile key when the source has none: a null, empty or absent profile keys under agent:main, the key already bound, and the keys are a set';

/** Nothing removed. */
const NOTHING_REMOVED =
  'how removeTopLevelMembers reports a removal: when no member is removed, rebuilding the text from all members gives the same text, and a count of members.length + kept.length is non-zero exactly when members.length - kept.length is (the sanitiser only asks whether it is zero)';

/** Well-formed UTF-8 round-trips. */
const ROUND_TRIP =
  'forwarding encodeUtf8(decode(body)) instead of the body itself when nothing was removed: the body was decoded as well-formed UTF-8 without a BOM (the verifier refuses a BOM), which encodes back to the same bytes';

export default [
  // --- the factories' option checks, unreachable with usable options
  ...onSpans({ pairs: PAIRS, file: PASSTHROUGH, reason: OPTION_CHECKS }, [
    {
      from: 'export function passthroughHandlerSettings(',
      until: 'profileOf: async (tenant) => checkedProfile',
    },
    { from: 'export function requiredString(', until: 'const VERIFIER_REFUSALS' },
    { from: 'function positiveInteger(', until: '/** What to hand over' },
    { from: 'export function tenantResolverFromRegistry(', until: 'return async (platform, routeKey) =>' },
    {
      from: "const publicKey = requiredString(options.publicKey, 'publicKey');",
      until: 'const dialects = options.dialects ?? SESSION_KEY_DIALECTS;',
    },
    {
      from: '!Array.isArray(dialects) ||',
      until: 'const groupSessionsPerUser = options.groupSessionsPerUser ?? true;',
    },
    {
      from: "if (typeof groupSessionsPerUser !== 'boolean') {",
      until: 'const maxSkewSeconds = options.maxSkewSeconds;',
    },
    {
      from: "const authToken = requiredString(options.authToken, 'authToken');",
      until: 'const handle = async',
    },
    {
      from: 'const routeKeys = routeKeysOf(webhook);',
      until: "const resolved = await resolveTenant(settings.tenantOf, 'twilio', routeKeys);",
    },
    { from: 'const crypto: WeComCryptoOptions = {', until: 'const maxSkewSeconds = options.maxSkewSeconds;' },
    {
      from: 'const routeKeys = routeKeysOf(sanitised.fields);',
      until: "const resolved = await resolveTenant(settings.tenantOf, 'wecom', routeKeys);",
    },
  ]),
  ...onSpans({ pairs: PAIRS, file: SANITISERS, reason: OPTION_CHECKS }, [
    { from: 'function checkOptions(', until: "/** One child element of an XML document's root" },
    { from: 'if (!(body instanceof Uint8Array))', until: 'const settings = checkOptions(options);' },
    { from: "if (typeof message !== 'string')", until: 'const children = xmlRootChildren(message);' },
  ]),
  {
    pairs: PAIRS,
    file: PASSTHROUGH,
    code: 'profileOf: async (tenant) => checkedProfile(await profileOf?.(tenant)),',
    mutators: ['OptionalChaining'],
    reason: `${OPTION_CHECKS}; here: the default for a profileOf the adapter always passes`,
  },
  // --- refusal wording
  ...atSpots(
    { pairs: PAIRS, file: PASSTHROUGH, mutators: ['StringLiteral', 'ObjectLiteral'], reason: WORDS },
    [
      [
        "throw new RelayError('edge_webhook_unauthorized', `the request is not a verified ${provider} webhook`, {",
        57,
      ],
      [
        "throw new RelayError('edge_webhook_unauthorized', `the request is not a verified ${provider} webhook`, {",
        110,
      ],
      ["path: 'request',", 15],
      [
        "return new RelayError('edge_unknown_tenant', `no tenant is provisioned for this ${platform} event`, {",
        48,
      ],
      [
        "return new RelayError('edge_unknown_tenant', `no tenant is provisioned for this ${platform} event`, {",
        103,
      ],
      ["path: 'routeKey',", 11],
      ["throw new RelayError('edge_http_bad_request', 'the webhook payload cannot be forwarded', {", 51],
      ["throw new RelayError('edge_http_bad_request', 'the webhook payload cannot be forwarded', {", 94],
      ["const { interaction, body } = verified('Discord', () =>", 44],
      ["if (resolved === null) throw unknownTenant('discord');", 48],
      ["const webhook = verified('Twilio', () => verifyTwilioWebhook(edgeRequest, { authToken }));", 30],
      ["if (resolved === null) throw unknownTenant('twilio');", 48],
      ["const callback = verified('WeCom', () =>", 31],
      ["if (resolved === null) throw unknownTenant('wecom');", 48],
    ],
  ),
  {
    pairs: PAIRS,
    file: SANITISERS,
    span: { from: 'function idText(', until: '/** One member of the top-level object' },
    mutators: ['StringLiteral', 'ObjectLiteral'],
    reason: WORDS,
  },
  ...onCodes(
    { pairs: PAIRS, file: SANITISERS, mutators: ['StringLiteral', 'ObjectLiteral'], reason: WORDS },
    [
      "throw new RelayError('sanitiser_malformed_payload', 'the message has no XML root element', {",
      "path: 'message',",
      "throw new RelayError('sanitiser_malformed_payload', 'the XML root is not closed', { path: 'message' });",
    ],
  ),
  // --- which errors become refusals
  ...[
    [
      'if (error instanceof RelayError && VERIFIER_REFUSALS.has(error.code)) {',
      9,
      'ConditionalExpression',
      'true',
    ],
    ['if (error instanceof RelayError && VERIFIER_REFUSALS.has(error.code)) {', 9, 'LogicalOperator', '||'],
    [
      "if (!(error instanceof RelayError && error.code === 'sanitiser_malformed_payload')) throw error;",
      9,
      'ConditionalExpression',
      'false',
    ],
    [
      "if (!(error instanceof RelayError && error.code === 'sanitiser_malformed_payload')) throw error;",
      11,
      'ConditionalExpression',
      'true',
    ],
    [
      "if (!(error instanceof RelayError && error.code === 'sanitiser_malformed_payload')) throw error;",
      11,
      'LogicalOperator',
      '||',
    ],
    [
      "if (!(error instanceof RelayError && error.code === 'sanitiser_malformed_payload')) throw error;",
      42,
      'ConditionalExpression',
      'true',
    ],
  ].map(([code, column, mutator, replacement]) => ({
    pairs: PAIRS,
    file: PASSTHROUGH,
    code,
    column,
    mutators: [mutator],
    replacement,
    reason: ONLY_REFUSALS,
  })),
  // --- handoff timing
  ...onSpans({ pairs: PAIRS, file: PASSTHROUGH, reason: HANDOFF_TIMING }, [
    { from: "const late = new Promise<'late'>((resolve) => {", until: '/**' },
    { from: 'onError: (error) => {', until: 'now: now ?? Date.now,' },
  ]),
  // --- resolver and profile answers
  {
    pairs: PAIRS,
    file: PASSTHROUGH,
    span: {
      from: "if (typeof tenant !== 'string' || tenant === '') {",
      until: 'return { tenant, routeKey };',
    },
    reason: RESOLVER_ANSWERS,
  },
  {
    pairs: PAIRS,
    file: PASSTHROUGH,
    code: 'if (tenant === null || tenant === undefined) continue;',
    column: 28,
    reason: RESOLVER_ANSWERS,
  },
  {
    pairs: PAIRS,
    file: PASSTHROUGH,
    span: { from: "if (typeof profile !== 'string') {", until: 'function positiveInteger(' },
    reason: RESOLVER_ANSWERS,
  },
  ...atSpots(
    { pairs: PAIRS, file: PASSTHROUGH, reason: RESOLVER_ANSWERS },
    [7, 52, 64].map((column) => [
      "if (profile === undefined || profile === null || profile === '') return null;",
      column,
    ]),
  ).map((entry) =>
    entry.column === 7 ? { ...entry, mutators: ['ConditionalExpression'], replacement: 'false' } : entry,
  ),
  // --- route keys no tenant holds
  ...[
    ["if (routeKey === '') continue;", 'ConditionalExpression', 'false'],
    ["if (routeKey === '') continue;", 'StringLiteral', 'Stryker was here!'],
    [
      "return [text(interaction['channel_id']), userId].filter((key) => key !== '');",
      'MethodExpression',
      '[text(',
    ],
    [
      "return [text(interaction['channel_id']), userId].filter((key) => key !== '');",
      'ConditionalExpression',
      'true',
    ],
    [
      "return [text(interaction['channel_id']), userId].filter((key) => key !== '');",
      'StringLiteral',
      'Stryker was here!',
    ],
    ['return to === undefined ? [] : [to];', 'ConditionalExpression', 'false'],
    ['return to === undefined ? [] : [to];', 'ArrayDeclaration', 'Stryker was here'],
  ].map(([code, mutator, replacement]) => ({
    pairs: PAIRS,
    file: PASSTHROUGH,
    code,
    mutators: [mutator],
    replacement,
    reason: NO_KEY,
  })),
  // --- Discord's interaction shape
  ...[
    ["const member = interaction['member'];", 'StringLiteral', '""'],
    [
      "typeof member === 'object' && member !== null ? (member as { user?: unknown }).user : undefined;",
      'ConditionalExpression',
      'false',
    ],
    [
      "typeof member === 'object' && member !== null ? (member as { user?: unknown }).user : undefined;",
      'StringLiteral',
      '""',
    ],
    [
      "typeof member === 'object' && member !== null ? (member as { user?: unknown }).user : undefined;",
      'ConditionalExpression',
      'true',
    ],
    [
      "typeof member === 'object' && member !== null ? (member as { user?: unknown }).user : undefined;",
      'EqualityOperator',
      'member === null',
    ],
    [
      "const userId = typeof user === 'object' && user !== null ? text((user as { id?: unknown }).id) : '';",
      'ConditionalExpression',
      'true',
    ],
    [
      "const userId = typeof user === 'object' && user !== null ? text((user as { id?: unknown }).id) : '';",
      'LogicalOperator',
      '||',
    ],
    [
      "const userId = typeof user === 'object' && user !== null ? text((user as { id?: unknown }).id) : '';",
      'StringLiteral',
      'Stryker was here!',
    ],
  ].map(([code, mutator, replacement]) => ({
    pairs: PAIRS,
    file: PASSTHROUGH,
    code,
    mutators: [mutator],
    replacement,
    reason: DISCORD_USER_SHAPE,
  })),
  // --- bot ids of events the providers never send
  ...atSpots({ pairs: PAIRS, file: PASSTHROUGH, reason: BOT_ID_FALLBACK }, [
    ["botId: botId ?? (typeof applicationId === 'string' ? applicationId : ''),", 28],
    ["botId: botId ?? (typeof applicationId === 'string' ? applicationId : ''),", 80],
    ["botId: botId ?? twilioParam(webhook, 'AccountSid') ?? '',", 65],
    ["botId: botId ?? sanitised.fields.get('AgentID') ?? '',", 62],
  ]),
  // --- answer hygiene
  ...onCodes({ pairs: PAIRS, file: PASSTHROUGH, mutators: ['StringLiteral'], reason: HYGIENE }, [
    "'cache-control': 'no-store',",
    "'x-content-type-options': 'nosniff',",
  ]),
  // --- profile: null
  {
    pairs: PAIRS,
    file: PASSTHROUGH,
    code: '...(profile === null ? {} : { profile }),',
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: NULL_PROFILE,
  },
  // --- the sanitiser after the verifier
  {
    pairs: PAIRS,
    file: SANITISERS,
    span: { from: 'export function removeTopLevelMembers(', until: 'const members = topLevelMembers(text);' },
    reason: VERIFIED_JSON,
  },
  {
    pairs: PAIRS,
    file: SANITISERS,
    span: { from: 'export function decodeUtf8Strict(', until: '/** UTF-8 bytes of `text`' },
    reason: VERIFIED_JSON,
  },
  ...onCodes(
    { pairs: PAIRS, file: SANITISERS, mutators: ['StringLiteral', 'ObjectLiteral'], reason: VERIFIED_JSON },
    [
      "throw new RelayError('sanitiser_malformed_payload', 'the body is not a JSON object', { path: 'body' });",
      "throw new RelayError('sanitiser_malformed_payload', 'unterminated string in the body', { path: 'body' });",
      "throw new RelayError('sanitiser_malformed_payload', 'unterminated value in the body', { path: 'body' });",
    ],
  ),
  ...onCodes({ pairs: PAIRS, file: PASSTHROUGH, mutators: ['StringLiteral'], reason: OPTION_CHECKS }, [
    "maxBodyBytes: positiveInteger(options.maxBodyBytes, DEFAULT_WEBHOOK_MAX_BODY_BYTES, 'maxBodyBytes'),",
    "'handoffTimeoutMs',",
  ]),
  {
    pairs: PAIRS,
    file: SANITISERS,
    code: "if (typeof value === 'boolean' || (typeof value === 'number' && Number.isSafeInteger(value))) {",
    column: 38,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: SAFE_INTEGER_IS_A_NUMBER,
  },
  {
    pairs: PAIRS,
    file: SANITISERS,
    code: 'const children: XmlChildElement[] = [];',
    mutators: ['ArrayDeclaration'],
    reason: STRAY_CHILD,
  },
  {
    pairs: PAIRS,
    file: SANITISERS,
    code: "if (xml[at] !== '<') return undefined;",
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: AT_A_TAG,
  },
  ...onCodes(
    {
      pairs: PAIRS,
      file: SANITISERS,
      mutators: ['EqualityOperator'],
      replacement: '<= xml.length',
      reason: ONE_PAST_THE_END,
    },
    ['for (let at = from; at < xml.length; at++) {', 'while (at < xml.length) {'],
  ),
  ...onCodes(
    { pairs: PAIRS, file: SANITISERS, mutators: ['StringLiteral', 'ObjectLiteral'], reason: WORDS },
    ["throw new RelayError('sanitiser_malformed_payload', 'an XML tag is not closed', { path: 'message' });"],
  ),
  // --- ill-formed XML
  ...[
    [10, 'ConditionalExpression', 'true'],
    [10, 'LogicalOperator', '||'],
    [32, 'ConditionalExpression', 'false'],
    [32, 'EqualityOperator', 'code > 0xd800'],
    [50, 'EqualityOperator', 'code < 0xdfff'],
  ].map(([column, mutator, replacement]) => ({
    pairs: PAIRS,
    file: SANITISERS,
    code: 'return code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : undefined;',
    column,
    mutators: [mutator],
    replacement,
    reason: XML_WECOM_NEVER_SENDS,
  })),
  {
    pairs: PAIRS,
    file: SANITISERS,
    code: 'if (trimmed.startsWith(CDATA_OPEN) && trimmed.endsWith(CDATA_CLOSE)) {',
    mutators: ['LogicalOperator'],
    reason: XML_WECOM_NEVER_SENDS,
  },
  {
    pairs: PAIRS,
    file: SANITISERS,
    code: 'if (!inner.includes(CDATA_CLOSE)) return inner;',
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: XML_WECOM_NEVER_SENDS,
  },
  // --- the Discord sanitiser's session source and scanner
  ...atSpots({ pairs: PAIRS, file: SANITISERS, mutators: ['StringLiteral'], reason: WORDS }, [
    ["chat_id: idText(interaction['channel_id'], 'channel_id') ?? '',", 48],
    ["user_id: idText(userFields['id'], 'user.id'),", 39],
    ["user_name: idText(userFields['username'], 'user.username'),", 47],
    ["scope_id: idText(interaction['guild_id'], 'guild_id'),", 47],
    ["message_id: idText(interaction['id'], 'id'),", 43],
    ["const text = decodeUtf8Strict(body, 'body');", 39],
  ]),
  ...atSpots({ pairs: PAIRS, file: SANITISERS, mutators: ['StringLiteral'], reason: NOT_IN_KEY }, [
    ["user_name: idText(userFields['username'], 'user.username'),", 34],
    ["scope_id: idText(interaction['guild_id'], 'guild_id'),", 34],
    ["message_id: idText(interaction['id'], 'id'),", 36],
  ]),
  ...atSpots(
    { pairs: PAIRS, file: SANITISERS, reason: NO_PROFILE_KEY },
    [22, 42, 54].map((column) => [
      "return upstream && profile !== null && profile !== '' ? { ...source, profile } : source;",
      column,
    ]),
  ),
  {
    pairs: PAIRS,
    file: SANITISERS,
    code: 'if (source.profile !== undefined) {',
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: NO_PROFILE_KEY,
  },
  ...onCodes({ pairs: PAIRS, file: SANITISERS, reason: NOTHING_REMOVED }, [
    'if (kept.length === members.length) return { text, removed: 0 };',
    'return { text: out + text.slice(last.end), removed: members.length - kept.length };',
  ]),
  {
    pairs: PAIRS,
    file: SANITISERS,
    code: 'const forwardedBody = removal.removed === 0 ? body : encodeUtf8(removal.text);',
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: ROUND_TRIP,
  },
  ...onCodes({ pairs: PAIRS, file: SANITISERS, reason: VERIFIED_JSON }, [
    "if (text[at] !== '{')",
    "if (text[at] === '}') return members;",
    "const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });",
  ]),
  ...onCodes(
    {
      pairs: PAIRS,
      file: SANITISERS,
      mutators: ['ConditionalExpression', 'EqualityOperator'],
      reason: ONE_PAST_THE_END,
    },
    [
      "while (at < text.length && ' \\t\\n\\r'.includes(text[at]!)) at++;",
      'while (at < text.length) {',
      "while (at < text.length && !',}] \\t\\n\\r'.includes(text[at]!)) at++;",
    ],
  ),
  {
    pairs: PAIRS,
    file: SANITISERS,
    code: "const lt = xml.indexOf('<', at);",
    mutators: ['StringLiteral'],
    reason:
      "elementEnd searching for '' instead of '<': indexOf('') answers the position itself, and a position that is not '<' is stepped over (no CDATA, comment, end tag or start tag opens there), so the scan visits the same '<'s in order",
  },
  {
    pairs: PAIRS,
    file: SANITISERS,
    code: 'if (lt < 0) break;',
    mutators: ['EqualityOperator'],
    replacement: 'lt <= 0',
    reason:
      "elementEnd stopping at a '<' found at index 0: it scans the content after a start tag, so a '<' it finds is never at index 0",
  },
  ...onCodes(
    { pairs: PAIRS, file: SANITISERS, mutators: ['StringLiteral', 'ObjectLiteral'], reason: WORDS },
    [
      "throw new RelayError('sanitiser_malformed_payload', 'an XML element is not closed', { path: 'message' });",
      "throw new RelayError('sanitiser_malformed_payload', `no ${terminator} in the message`, {",
    ],
  ),

  {
    pairs: PAIRS,
    file: SANITISERS,
    code: "while (at < xml.length && xml[at] !== '<') at++;",
    mutators: ['EqualityOperator'],
    replacement: '<= xml.length',
    reason: ONE_PAST_THE_END,
  },
  {
    pairs: PAIRS,
    file: SANITISERS,
    code: 'if (found < 0)',
    mutators: ['EqualityOperator'],
    replacement: 'found <= 0',
    reason:
      "endOf refusing a terminator found at index 0: it searches from the '<' that opens a comment, CDATA section or declaration, so the terminator is never at index 0",
  },
  {
    pairs: PAIRS,
    file: SANITISERS,
    code: 'return { forwardedBody: encodeUtf8(text), fields, removed: credentials.map((child) => child.name) };',
    mutators: ['ArrowFunction'],
    reason:
      "the names in sanitiseWeComMessage's `removed` list, which the handler does not read (what was cut out shows in the forwarded body, which the cases compare)",
  },
  {
    pairs: PAIRS,
    file: PASSTHROUGH,
    code: 'return query?.get(name) ?? undefined;',
    mutators: ['OptionalChaining'],
    reason:
      'a guard the last run measured and the code has since dropped (twilioParam parsed signedUrl only when URL.canParse: the Twilio verifier took it as an absolute http or https URL, so it always parses); the entry goes STALE at the next run and is then removed',
  },
];
