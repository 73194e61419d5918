// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the entries quote source lines, template placeholders included
// Equivalents of relay-codec-streams (relay.codec × packages/relay/src/{ndjson,session-source}.ts).
// Format: mutation/equivalents.mjs (`Equivalent`); this file is self-contained.

const PAIRS = ['relay-codec-streams'];
const NDJSON = 'packages/relay/src/ndjson.ts';
const SESSION_SOURCE = 'packages/relay/src/session-source.ts';

const FRAME_WORDS =
  "what a frame-codec refusal says besides its code (its message, the JSON path, its details, its cause): the suite's stream and encode cases compare the code, which these mutants leave as it is";
const SOURCE_WORDS =
  'what a SessionSource refusal says besides its code (its message, its path): the suite checks the code, which these mutants leave as it is';
const LONE_SURROGATE =
  'differs only for a string holding a lone surrogate: a WebSocket text message is valid UTF-8 (RFC 6455 §5.6), so no text a stream decoder is fed holds one, and a binary message is counted and decoded as bytes';
const EMPTY_PENDING =
  'an empty pending line: while the decoder discards a long line it holds no pieces (#append resets them before it starts discarding), and no pieces join to "", which is a blank line (nothing reported, nothing decoded), so taking the other branch gives the same outcomes';
const EMPTY_PIECE =
  'an empty piece of a line: #append returns at once for a piece of 0 bytes, and an empty text piece adds nothing to the joined line, so appending it or not gives the same line';
const NOT_OBJECT_FRAME =
  "encodeFrame's refusal of a frame that is not an object: the suite's encodeFrame takes a frame object (its `frame` is read with readObject), so the check is never true, whether or not it is made";
const JSON_INPUT =
  "refusals of input that is not plain JSON data (a function, a cycle, undefined): the suite's sources are fixture JSON values, which always copy, so the refusal's factory is never called";

const SCOPE_THROUGH_TO_DICT =
  'from_dict stores its scope under one of its two keys only (and the other under ""): the suite sees a from_dict source only through to_dict (sessionSourceToWire; the session-source-from-dict cases compare to_dict(from_dict(input))), which writes scope_id and guild_id both from `scope_id if not None else guild_id` and writes no "" key; both keys held the same value, so reading it from the one left gives the same wire object';

/** @type {import('../equivalents.mjs').Equivalent[]} */
export default [
  // ndjson.ts: encodeFrame
  {
    pairs: PAIRS,
    file: NDJSON,
    code: "if (value === null || typeof value !== 'object' || Array.isArray(value)) throw frameNotObjectError(value);",
    mutators: ['LogicalOperator'],
    reason: NOT_OBJECT_FRAME,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: "if (value === null || typeof value !== 'object' || Array.isArray(value)) throw frameNotObjectError(value);",
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: NOT_OBJECT_FRAME,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: "(input['type'] === 'outbound' ? decodeOutboundFast(input) : undefined) ?? decodeFrame(input);",
    mutators: ['StringLiteral'],
    reason:
      'compares the type with "" or reads the key "": the condition is then false and every frame goes to decodeFrame, which the fast check answers as (it falls back to decodeFrame itself), so the frame written is the same',
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: "(input['type'] === 'outbound' ? decodeOutboundFast(input) : undefined) ?? decodeFrame(input);",
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'sends an outbound frame to decodeFrame instead of its hand-written fast check: the fast check answers as the schema does and falls back to decodeFrame itself, so the frame written is the same',
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: "return text.includes('null') ? JSON.stringify(value, rejectNonFinite) : text;",
    mutators: ['StringLiteral'],
    reason:
      'always takes the checking pass (includes("") is true): it writes the same text as JSON.stringify for every finite value and refuses the same non-finite ones, only more slowly',
  },
  ...[
    "if (error instanceof RelayError && error.code === 'unencodable_frame') throw error;",
    "'unencodable_frame',",
    '`frame cannot be written as JSON: ${error instanceof Error ? error.message : String(error)}`,',
    "'$',",
    '{ cause: error },',
  ].map((code) => ({
    pairs: PAIRS,
    file: NDJSON,
    code,
    exact: true,
    span: { from: 'export function compactJson(', until: 'function rejectNonFinite(' },
    mutators: [
      'ConditionalExpression',
      'LogicalOperator',
      'EqualityOperator',
      'StringLiteral',
      'ObjectLiteral',
    ],
    reason:
      "compactJson's catch: through the suite only rejectNonFinite's RelayError unencodable_frame reaches it (the frames are JSON fixture values, which JSON.stringify writes without throwing: no bigint, no cycle), and rethrowing that error or wrapping it in a new unencodable_frame gives the same code; the wrapping's own code and words are reached only by such a throw",
  })),
  {
    pairs: PAIRS,
    file: NDJSON,
    code: "throw frameError('unencodable_frame', `${value} cannot be written as standard JSON`, '$');",
    column: 22,
    mutators: ['StringLiteral'],
    reason:
      'the code of rejectNonFinite\'s refusal made "": compactJson\'s catch rethrows only an unencodable_frame RelayError and wraps any other error in a new unencodable_frame, so the caller gets that code either way',
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: "throw frameError('unencodable_frame', `${value} cannot be written as standard JSON`, '$');",
    column: 43,
    mutators: ['StringLiteral'],
    reason: FRAME_WORDS,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: "throw frameError('unencodable_frame', `${value} cannot be written as standard JSON`, '$');",
    column: 90,
    mutators: ['StringLiteral'],
    reason: FRAME_WORDS,
  },
  // ndjson.ts: utf8Length on lone surrogates (the column-14 `true` mutants of the pair condition cannot
  // be told apart from the whole condition made true, which a case kills, so they are left open).
  ...[
    { column: 14, replacement: 'unit >= 0xd800 && unit <= 0xdbff || isLowSurrogate' },
    { column: 14, replacement: 'unit >= 0xd800 || unit <= 0xdbff' },
    { column: 32, replacement: 'true' },
  ].map(({ column, replacement }) => ({
    pairs: PAIRS,
    file: NDJSON,
    code: 'else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {',
    column,
    replacement,
    mutators: ['ConditionalExpression', 'LogicalOperator'],
    reason: `${LONE_SURROGATE}: these make a unit other than a high surrogate count as a pair's first half only when a low surrogate follows it`,
  })),
  ...[
    { column: 10, replacement: 'true' },
    { column: 10, replacement: 'unit >= 0xdc00 || unit <= 0xdfff' },
    { column: 28, replacement: 'true' },
  ].map(({ column, replacement }) => ({
    pairs: PAIRS,
    file: NDJSON,
    code: 'return unit >= 0xdc00 && unit <= 0xdfff;',
    column,
    replacement,
    mutators: ['ConditionalExpression', 'LogicalOperator'],
    reason: `${LONE_SURROGATE}: isLowSurrogate is asked only about the unit after a high surrogate, and these change its answer only for a unit that is not a low surrogate there (a lone high surrogate)`,
  })),
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {',
    mutators: ['BlockStatement'],
    reason:
      'empties the surrogate-pair branch: the low surrogate is then not skipped and takes the last branch, which adds the same 2 bytes the pair branch adds (4 in all), for every string',
  },
  // ndjson.ts: FrameDecoder
  ...[
    'if (!Number.isSafeInteger(max) || max < 1) {',
    "throw new RelayError('invalid_argument', `maxLineBytes must be a positive integer, got ${max}`, {",
    "path: 'maxLineBytes',",
  ].map((code) => ({
    pairs: PAIRS,
    file: NDJSON,
    code,
    mutators: [
      'ConditionalExpression',
      'LogicalOperator',
      'BlockStatement',
      'StringLiteral',
      'ObjectLiteral',
    ],
    reason:
      "FrameDecoder's refusal of a maxLineBytes that is not a positive safe integer, the SDK's own argument check: the suite gives a fixture's maxLineBytes, always a positive integer (readPositiveInteger), or none (the 1 MiB default)",
  })),
  {
    pairs: PAIRS,
    file: NDJSON,
    span: { from: 'get bufferedBytes(): number {', until: '/**' },
    reason:
      "bufferedBytes, the SDK's view of how much of an unterminated line the decoder holds: not part of the framing contract, and the suite's FrameStreamDecoder has no member for it",
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'if (!this.#discarding && this.#parts.length > 0) {',
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: EMPTY_PENDING,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'if (!this.#discarding && this.#parts.length > 0) {',
    mutators: ['LogicalOperator'],
    reason: EMPTY_PENDING,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'if (!this.#discarding && this.#parts.length > 0) {',
    mutators: ['EqualityOperator'],
    replacement: 'this.#parts.length >= 0',
    reason: EMPTY_PENDING,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'if (parts.length === 0) return;',
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: EMPTY_PENDING,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'if (start < chunk.length) {',
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: EMPTY_PIECE,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'if (start < chunk.length) {',
    mutators: ['EqualityOperator'],
    replacement: 'start <= chunk.length',
    reason: EMPTY_PIECE,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'if (end > start) this.#append(chunk.slice(start, end), end - start, results);',
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: EMPTY_PIECE,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'if (end > start) this.#append(chunk.slice(start, end), end - start, results);',
    mutators: ['EqualityOperator'],
    replacement: 'end >= start',
    reason: EMPTY_PIECE,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'if (this.#discarding || bytes === 0) return;',
    column: 29,
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: `${EMPTY_PIECE} (a piece of 0 bytes reaches #append only as the empty text before a newline that ends a line begun in an earlier message)`,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'if (this.#parts.length === 0 && !this.#discarding) this.#decodeWholeLine(piece, results);',
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'skips the fast path for a line that arrived whole in one text message: the general path (append, then complete the line) applies the same line limit and decodes the same text, so the outcomes are the same',
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'if (line.length * 3 > this.#maxLineBytes && utf8Length(line) > this.#maxLineBytes) {',
    column: 9,
    mutators: ['EqualityOperator'],
    replacement: 'line.length * 3 >= this.#maxLineBytes',
    reason:
      'the pre-check `3 bytes per UTF-16 unit` is an upper bound that only spares the exact count: made `>=`, the exact UTF-8 length still decides, so the same lines are too long (the pre-check made true, at the same column as the whole condition made true, which a case kills, is left open)',
  },
  ...[43, 76, 81].map((column) => ({
    pairs: PAIRS,
    file: NDJSON,
    code: "error: frameError('invalid_utf8', 'frame line is not valid UTF-8', '$', { cause: error }),",
    column,
    mutators: ['StringLiteral', 'ObjectLiteral'],
    reason: FRAME_WORDS,
  })),
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'if (!isFrameError(error)) throw error;',
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      "the suite's decoder uses the default decode (decodeFrame, both directions), which throws only frame-codec RelayErrors: every error it throws is a frame error, so none is rethrown either way",
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: "if (parts.every((part) => typeof part === 'string')) return (parts as string[]).join('');",
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: `${LONE_SURROGATE}: these send a line of text pieces through the UTF-8 encoder and the fatal decoder, which give back the same text for every well-formed string`,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: "if (parts.every((part) => typeof part === 'string')) return (parts as string[]).join('');",
    column: 47,
    mutators: ['StringLiteral'],
    reason: `${LONE_SURROGATE}: these send a line of text pieces through the UTF-8 encoder and the fatal decoder, which give back the same text for every well-formed string`,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: "if (parts.every((part) => typeof part === 'string')) return (parts as string[]).join('');",
    mutators: ['ArrowFunction'],
    reason: `${LONE_SURROGATE}: these send a line of text pieces through the UTF-8 encoder and the fatal decoder, which give back the same text for every well-formed string`,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: '} catch {',
    span: { from: '#isBlankPending(): boolean {', until: '#reset(): void {' },
    mutators: ['BlockStatement'],
    reason:
      'an empty catch answers undefined, which the caller reads as false (not blank) like the `return false` it replaces',
  },
  ...[
    '`frame line longer than ${maxLineBytes} bytes; skipped to the next newline`,',
    "'$',",
    '{',
    'details: { maxLineBytes },',
  ].map((code) => ({
    pairs: PAIRS,
    file: NDJSON,
    code,
    exact: true,
    span: { from: 'function lineTooLongError(', until: '/**' },
    mutators: ['StringLiteral', 'ObjectLiteral'],
    reason: FRAME_WORDS,
  })),
  ...[
    '`stream ended inside a frame (${bufferedBytes} bytes without a terminating newline)`,',
    "'$',",
    '{ details: { bufferedBytes } },',
  ].map((code) => ({
    pairs: PAIRS,
    file: NDJSON,
    code,
    exact: true,
    span: { from: 'function incompleteFrameError(' },
    mutators: ['StringLiteral', 'ObjectLiteral'],
    reason: FRAME_WORDS,
  })),
  // session-source.ts
  ...[
    [
      "if (Object.hasOwn(src, 'prospective_thread_id') && prospective !== null && prospective !== undefined) {",
      78,
    ],
    [
      'if (Object.hasOwn(src, key) && flag !== null && flag !== undefined) into[key] = isPythonTruthy(flag);',
      53,
    ],
  ].map(([code, column]) => ({
    pairs: PAIRS,
    file: SESSION_SOURCE,
    code,
    column,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      '`!== undefined` made true: the source was copied as JSON data first (toJsonValue drops properties whose value is undefined), so a key present there never holds undefined',
  })),
  {
    pairs: PAIRS,
    file: SESSION_SOURCE,
    span: { from: 'export function isKnownPlatform(', until: '/**' },
    reason:
      "isKnownPlatform is read only by createMessageEvent's schema (message-event.ts), the SDK's builder of an outgoing event, which the suite's interface has no member for",
  },
  {
    pairs: PAIRS,
    file: SESSION_SOURCE,
    code: 'if (KNOWN.has(value)) return value;',
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      'skips the exact-name fast path: a known name is lowercase with no white space, so stripping and lowercasing it gives the same name, which the next line then finds',
  },
  ...[
    {
      code: "throw new RelayError('session_source_missing_platform', 'session source has no platform', {",
      columns: [61, 95],
    },
    { code: "path: 'platform',", columns: [13] },
    {
      code: "`session source platform ${JSON.stringify(get('platform'))} is not a known platform`,",
      columns: [7, 53],
    },
    { code: "{ path: 'platform' },", columns: [7, 15] },
    {
      code: "throw new RelayError('session_source_missing_chat_id', 'session source has no chat_id', {",
      columns: [60, 93],
    },
    { code: "path: 'chat_id',", columns: [13] },
    {
      code: "throw new RelayError('session_source_not_object', 'session source must be a JSON object');",
      columns: [55],
    },
    {
      code: "throw new RelayError('session_source_not_object', 'event source must be an object');",
      columns: [55],
    },
  ].flatMap(({ code, columns }) =>
    columns.map((column) => ({
      pairs: PAIRS,
      file: SESSION_SOURCE,
      code,
      column,
      mutators: ['StringLiteral', 'ObjectLiteral'],
      reason: SOURCE_WORDS,
    })),
  ),
  ...[
    { code: 'if (hasAmbiguousNumber(value)) {', mutators: ['ConditionalExpression'], replacement: 'false' },
    { code: 'if (hasAmbiguousNumber(value)) {', mutators: ['BlockStatement'] },
    { code: "'session_source_ambiguous_chat_id',", mutators: ['StringLiteral'] },
    {
      code: "'session source chat_id holds an integral number beyond ±(2^53 − 1) or -0: store it as a string',",
      mutators: ['StringLiteral'],
    },
    { code: "{ path: 'chat_id' },", mutators: ['StringLiteral', 'ObjectLiteral'] },
  ].map((entry) => ({
    pairs: PAIRS,
    file: SESSION_SOURCE,
    ...entry,
    exact: true,
    span: { from: 'function chatIdStr(', until: 'function hasAmbiguousNumber(' },
    reason:
      "from_dict's refusal of a chat_id number whose Python str() JavaScript cannot know (an integral number beyond ±(2^53 − 1), -0): Python's answer depends on whether the stored token was an int or a float, which no JavaScript reader sees, so the contract's answer for these inputs is asked only of an implementation that declares python-number-fidelity (their cases are skipped here); the refusal is the SDK's, and these mutants only stop it",
  })),
  ...[
    { code: 'function hasAmbiguousNumber(value: JsonValue): boolean {', mutators: ['BlockStatement'] },
    {
      code: "if (typeof value === 'number') {",
      mutators: ['BlockStatement', 'ConditionalExpression', 'EqualityOperator', 'StringLiteral'],
    },
    {
      code: 'return Number.isInteger(value) && (!Number.isSafeInteger(value) || Object.is(value, -0));',
      mutators: ['ConditionalExpression'],
      replacement: 'false',
    },
    {
      code: 'return Number.isInteger(value) && (!Number.isSafeInteger(value) || Object.is(value, -0));',
      mutators: ['LogicalOperator'],
      replacement: '!Number.isSafeInteger(value) && Object.is(value, -0)',
    },
    {
      code: "if (value === null || typeof value !== 'object') return false;",
      mutators: ['ConditionalExpression'],
      replacement: 'true',
    },
    { code: "if (value === null || typeof value !== 'object') return false;", mutators: ['StringLiteral'] },
  ].map((entry) => ({
    pairs: PAIRS,
    file: SESSION_SOURCE,
    ...entry,
    exact: true,
    reason:
      "hasAmbiguousNumber, which decides from_dict's refusal of a chat_id number whose Python str() JavaScript cannot know (an integral number beyond ±(2^53 − 1), -0, anywhere inside it): these mutants only refuse less (never a chat_id without such a number), and the contract's answer for those inputs is asked only of an implementation that declares python-number-fidelity",
  })),
  {
    pairs: PAIRS,
    file: SESSION_SOURCE,
    code: 'value === undefined',
    exact: true,
    mutators: ['ConditionalExpression'],
    reason: "from_dict of undefined: the suite's from_dict input is a fixture JSON value, never undefined",
  },
  ...[
    '({ message, path }) =>',
    "new RelayError('session_source_not_json', `session source: ${message}`, { path }),",
    "({ message, path }) => new RelayError('session_source_not_json', `event source: ${message}`, { path }),",
    "({ message, path }) => new RelayError('session_source_not_json', `session source: ${message}`, { path }),",
  ].map((code) => ({
    pairs: PAIRS,
    file: SESSION_SOURCE,
    code,
    exact: true,
    mutators: ['ArrowFunction', 'StringLiteral', 'ObjectLiteral'],
    reason: JSON_INPUT,
  })),
  {
    pairs: PAIRS,
    file: SESSION_SOURCE,
    code: 'const value = wire === undefined ? null : wire;',
    mutators: ['ConditionalExpression'],
    reason:
      'an absent source kept as undefined instead of null: both are falsy to isPythonTruthy, so the source reads as {} either way',
  },
  {
    pairs: PAIRS,
    file: SESSION_SOURCE,
    code: "if (typeof value !== 'object' || value === null || Array.isArray(value)) {",
    column: 36,
    mutators: ['ConditionalExpression'],
    reason: 'the value is truthy here (a falsy source returned above), so it is never null',
  },
  {
    pairs: PAIRS,
    file: SESSION_SOURCE,
    code: "platform: canonicalPlatform(Object.hasOwn(src, 'platform') ? src['platform'] : 'relay'),",
    mutators: ['StringLiteral'],
    reason:
      'the default of an absent platform made "": canonicalPlatform turns "" (not a known name) into "relay", the default itself',
  },
  ...[
    {
      code: "if (typeof src['platform'] !== 'string') {",
      mutators: ['ConditionalExpression'],
      replacement: 'false',
    },
    { code: "if (typeof src['platform'] !== 'string') {", mutators: ['BlockStatement'] },
    {
      code: "throw new RelayError('session_source_invalid_field', 'source.platform must be a string', {",
      mutators: ['StringLiteral', 'ObjectLiteral'],
    },
    {
      code: "if (!Object.hasOwn(src, 'chat_id'))",
      mutators: ['ConditionalExpression'],
      replacement: 'false',
    },
    {
      code: "throw new RelayError('session_source_invalid_field', 'source.chat_id is required', { path: 'chat_id' });",
      mutators: ['StringLiteral', 'ObjectLiteral'],
    },
  ].map((entry) => ({
    pairs: PAIRS,
    file: SESSION_SOURCE,
    ...entry,
    exact: true,
    span: { from: 'export function sessionSourceToWire(', until: 'const get = ' },
    reason:
      "sessionSourceToWire's refusal of a source without a string platform or without chat_id, the SDK's own argument check: a gateway SessionSource always has both, so to_dict() has no such refusal, and every source the suite hands has them (the to_wire fixture sources, and the sources its readers made)",
  })),
  {
    pairs: PAIRS,
    file: SESSION_SOURCE,
    span: { from: 'function readJsonObject(' },
    mutators: ['LogicalOperator', 'BlockStatement', 'StringLiteral', 'ObjectLiteral'],
    reason:
      "sessionSourceToWire's refusal of a source that is not a JSON object: every source the suite hands is one (fixture objects read with readObject, and the sources its readers made)",
  },
  {
    pairs: PAIRS,
    file: SESSION_SOURCE,
    span: { from: 'function readJsonObject(' },
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      "sessionSourceToWire's refusal of a source that is not a JSON object: every source the suite hands is one (fixture objects read with readObject, and the sources its readers made)",
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {',
    span: { from: 'export function utf8Length(', until: 'function isLowSurrogate(' },
    column: 14,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: `${LONE_SURROGATE}: with \`unit >= 0xd800\` or \`unit >= 0xd800 && unit <= 0xdbff\` made true, a unit counts as a pair's first half whenever a low surrogate follows it, and in well-formed text only a high surrogate is followed by a low one (the whole condition made \`true\`, same column and replacement, miscounts U+0800 followed by U+0800 and is killed by stream-line-limit-counts-astral-*; the entry sets aside survivors only)`,
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'this.#discarding = false;',
    exact: true,
    span: { from: '  end(): FrameDecoderResult<F>[] {', until: '  #pushText(' },
    mutators: ['BooleanLiteral'],
    reason:
      "what end() leaves for a decoder used again after it: the suite's stream cases build a fresh decoder per case (createDecoder, relay-reference §2.3: one stream per connection) and call end() last, so nothing is pushed after it; reusing an ended decoder is the SDK's promise, which its unit tests check (ndjson.frame-decoder.test.ts)",
  },
  {
    pairs: PAIRS,
    file: NDJSON,
    code: 'if (line.length * 3 > this.#maxLineBytes && utf8Length(line) > this.#maxLineBytes) {',
    column: 9,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      'skips the cheap bound and counts every whole line exactly: a UTF-16 unit is at most 3 UTF-8 bytes (a surrogate pair, two units, is 4), so utf8Length(line) <= 3 × line.length, and a line the bound lets through is never over the limit by its exact count either; only the cost differs',
  },
  ...[
    ["result['scope_id'] = scope;", 10],
    ["result['guild_id'] = scope;", 10],
  ].map(([code, column]) => ({
    pairs: PAIRS,
    file: SESSION_SOURCE,
    code,
    exact: true,
    span: { from: 'export function sessionSourceFromDict(', until: 'function chatIdStr(' },
    column,
    mutators: ['StringLiteral'],
    reason: SCOPE_THROUGH_TO_DICT,
  })),
];
