// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the entries quote source lines, template placeholders included
// Equivalents of the `wire` pair (suite hearthnet.wire × the SDK's envelope and SSE codecs), after the
// cases of suite 1.1.0, in the format of mutation/equivalents.mjs, which lists them with the rest.
import { CONDITION_MUTATORS, sameReason } from './shared.mjs';

const ENVELOPE = 'packages/hearthnet/src/wire/envelope.ts';
const SSE = 'packages/hearthnet/src/wire/sse.ts';
const PAIRS = ['wire'];

/** What a refusal says besides the refusal itself. */
const SIGNING_REFUSAL_WORDS =
  "the code and message of the SDK's refusal to sign or build an envelope: the suite asks that signing refuse (sign-refused) and that verification answer false; no member of its interface reports a signing error's code, which the contract does not name";
const STREAM_REFUSAL_WORDS =
  "the message of a refused stream: the suite checks the refusal and its reason (errorReason reads the sse_protocol code and details.reason); the wording is the SDK's";
/** The parser's own size bound. */
const EVENT_BOUND =
  "the parser's own bound on the size of one event (maxEventLength, 16 MiB by default, its option check and the lengths it counts): the contract sets no limit, sse-frames.json names no frame_too_large, and the interface reads with the default bound, which no fixture stream comes near";

/** The parser after its end. */
const FINISHED_STATE =
  "the parser's state after finish(), and a second finish(): the interface ends each stream once and pushes nothing after it (a finish that returns at once, skipping the decoder's flush, is killed by read-ends-inside-utf8)";

const SIGNER_CHECK =
  "if (!(key instanceof Uint8Array) && typeof key === 'object' && key !== null && key.nodeId !== from) {";
const KEY_PAIR_ONLY =
  "these differ from the original only for a key that is a Uint8Array seed (they then compare its missing nodeId with `from` and refuse to sign): the suite's signRequest / signResponse hand a seed that the adapter turns into a KeyPair (keyPairFromSeed) before it signs, and for a KeyPair, an object that is not null and not a Uint8Array, every variant reduces to `key.nodeId !== from`, as the original does. (The whole condition made `true`, which has the same column and replacement, refuses every signature and is killed by every signing case; the entry sets aside survivors only.)";

export default [
  // envelope.ts: response envelopes
  ...sameReason(
    {
      pairs: PAIRS,
      file: ENVELOPE,
      span: { from: 'export function responseEnvelope(', until: 'export function requestEnvelopeBytes(' },
      mutators: [...CONDITION_MUTATORS, 'OptionalChaining', 'StringLiteral'],
      reason:
        "the SDK's refusal of a response status that is not an integer in 100–599 (and of a fields argument that is not an object): a response's status is its HTTP status line's three-digit code, so no response a node sends or a client reads carries another, and §5.2 ('ed25519 over response') names no refusal; the suite's response cases sign the statuses of real responses",
    },
    [
      'const status = (fields as Partial<ResponseEnvelopeFields>)?.status;',
      'if (!Number.isSafeInteger(status) || (status as number) < 100 || (status as number) > 599) {',
      "'invalid_envelope',",
      '`status must be an HTTP status code, got ${String(status)}`,',
    ],
  ),

  // envelope.ts: request verification and signing
  {
    pairs: PAIRS,
    file: ENVELOPE,
    span: { from: 'export function verifyRequestEnvelope(', until: '/** Signs a response' },
    code: "return { valid: false, reason: 'not_an_object', detail: (error as Error).message };",
    mutators: ['StringLiteral'],
    reason:
      "the reason the SDK gives with a false verdict for fields that make no envelope: the interface's verifyRequest answers the verdict, which the contract fixes, and the reason is a diagnostic",
  },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: "return { signature: signed.signature, body: signed['body'] };",
    mutators: ['StringLiteral'],
    reason:
      'the canonicalised body signRequestEnvelope returns beside the signature (a convenience: the body to send): the interface asks for the signature, and a receiver re-canonicalises whatever body it is sent, so sending the original body verifies the same (§5.1 covers the canonical body)',
  },
  ...sameReason(
    {
      pairs: PAIRS,
      file: ENVELOPE,
      span: { from: 'function checkSigner(', until: 'function requireString<' },
      mutators: ['StringLiteral'],
      reason: SIGNING_REFUSAL_WORDS,
    },
    [
      "'invalid_envelope',",
      '`timestamp must be RFC 3339 UTC with Z, got ${JSON.stringify(timestamp)}`,',
      "`from (${from}) is not the signing key's node id (${key.nodeId})`,",
    ],
  ),
  ...[39, 66].map((column) => ({
    pairs: PAIRS,
    file: ENVELOPE,
    code: "if (!(key instanceof Uint8Array) && typeof key === 'object' && key !== null && key.nodeId !== from) {",
    column,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      "the key is a KeyPair or a 32-byte seed (the signer's parameter type; the suite hands a seed, which the adapter turns into a KeyPair): once it is not a Uint8Array it is an object and not null, so `typeof key === 'object'` and `key !== null` are always true there",
  })),
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: "const value = fields === null || typeof fields !== 'object' ? undefined : fields[name];",
    mutators: ['ConditionalExpression', 'LogicalOperator'],
    reason:
      'the fields argument is always an object through the interface (WireRequestFields or WireResponseFields; a header left out is a null field inside it), so the guard against a null or non-object argument is never taken',
  },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: "throw new HearthNetLocalError('invalid_envelope', `${name} must be a string`);",
    mutators: ['StringLiteral'],
    reason: SIGNING_REFUSAL_WORDS,
  },
  ...sameReason(
    {
      pairs: PAIRS,
      file: ENVELOPE,
      span: { from: 'function requireBody(', until: '/** The path every capability call' },
      mutators: [...CONDITION_MUTATORS, 'StringLiteral'],
      reason:
        "the SDK's own refusal of an absent (undefined) body: fields is always an object, and canonical JSON, which writes no undefined, refuses such an envelope itself, so the builder and the signer still throw and the verifier still answers false (with another code or reason); every JSON body, null included, passes either way. A fixture body is JSON, so the interface cannot pass undefined",
    },
    [
      "if (fields === null || typeof fields !== 'object' || !('body' in fields) || fields.body === undefined) {",
      "throw new HearthNetLocalError('invalid_envelope', 'body is required');",
    ],
  ),
  // envelope.ts: wire timestamps
  {
    pairs: PAIRS,
    file: ENVELOPE,
    span: { from: 'export function formatWireTimestamp(', until: 'export function parseWireTimestamp(' },
    reason:
      "unreachable: the SDK's helper that writes the timestamp of a clock reading; the wire interface is given its timestamps (fixtures) and never asks for one",
  },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: 'if (match === null) return undefined;',
    mutators: ['ConditionalExpression'],
    reason:
      "a timestamp the pattern does not match is refused either way: without the early return, reading the groups of the null match throws a TypeError, so the signer still refuses (the suite asks that it refuse; which error it throws is the SDK's, see the checkSigner entries)",
  },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: "const ms = match[7] === undefined ? 0 : Number(match[7].padEnd(3, '0'));",
    mutators: ['ConditionalExpression', 'StringLiteral'],
    reason:
      "the milliseconds of the parsed time: in this pair's span parseWireTimestamp only tells the signer whether a timestamp is well-formed (checkSigner compares its result with undefined), and up to 999 ms never carry into a checked field; the value itself is read by the request verifier's clock-skew check, which the wire interface does not have",
  },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: 'check.getUTCFullYear() === year &&',
    column: 5,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      '(for the year check alone made true; the other prefixes of the chain made true are killed by sign-refuses-impossible-date and sign-refuses-month-13) differs only for the years 0000–0099, which Date.UTC reads as 1900–1999: the original refuses to sign them, the mutant signs them, and every other timestamp is treated alike (a month of 00 or 13 moves the year, which the month check then sees). Those years are valid RFC 3339, which §1.1 does not exclude, so no case may require their refusal',
  },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: 'check.getUTCFullYear() === year &&',
    column: 5,
    mutators: ['LogicalOperator'],
    replacement: 'check.getUTCFullYear() === year || check.getUTCMonth() === month! - 1',
    reason:
      '(year || month) && day && …: differs from the original only when exactly one of the year and month checks fails with the day, hour, minute and second matching, which only the years 0000–0099 do (Date.UTC reads them as 1900–1999; a month out of range moves the year and a day out of range the day): valid RFC 3339 years §1.1 does not exclude, so no case may require their refusal',
  },
  ...sameReason(
    {
      pairs: PAIRS,
      file: ENVELOPE,
      column: 5,
      mutators: ['ConditionalExpression'],
      replacement: 'true',
      reason:
        "each check but the year's is implied by the others: a field out of range is reduced by Date.UTC (so its own check fails) and carries into the next larger field (so that one's fails): month 00 or 13 moves the year, day 00 or past the month's end the month, hour 24–99 the day by 1–4, minute 60–99 the hour, second 60–99 the minute; with one check gone, the next larger field's check still refuses every such timestamp",
    },
    [
      'check.getUTCMonth() === month! - 1 &&',
      'check.getUTCDate() === day &&',
      'check.getUTCHours() === hour &&',
      'check.getUTCMinutes() === minute &&',
      'check.getUTCSeconds() === second;',
    ],
  ),
  // sse.ts: constants and the encoder
  ...sameReason(
    {
      pairs: PAIRS,
      file: SSE,
      mutators: ['StringLiteral'],
      reason:
        "an event name read only by code after the frame reader (streamFrameValidator's contract-wide schemas, the bus handler's client streams), which the hearthnet.node pair measures: nothing in this pair's span reads it, and the wire interface encodes and reads frames by the names it is given",
    },
    [
      "export const PROGRESS_EVENT = 'progress';",
      "export const ACK_EVENT = 'ack';",
      "export const REQUEST_EVENT = 'request';",
    ],
  ),
  ...sameReason(
    {
      pairs: PAIRS,
      file: SSE,
      span: { from: 'export function encodeSseEvent(', until: '/**' },
      mutators: ['ConditionalExpression', 'StringLiteral'],
      reason:
        "encodeSseEvent's guard against data that is not a string: the interface has no member for raw events, and encodeSseFrame hands it JSON.stringify's text, always a string",
    },
    [
      "if (typeof event.data !== 'string')",
      "throw new HearthNetLocalError('invalid_sse_frame', 'SSE event data must be a string');",
    ],
  ),
  {
    pairs: PAIRS,
    file: SSE,
    code: "return `event: ${event.event}\\n${lines.join('')}\\n`;",
    mutators: ['StringLiteral'],
    reason:
      "the separator between data lines: encodeSseFrame hands JSON.stringify's text, which never holds CR or LF, so a frame has one data line and the separator joins nothing",
  },
  ...sameReason(
    {
      pairs: PAIRS,
      file: SSE,
      span: { from: 'export function encodeSseFrame(', until: '/**' },
      mutators: [...CONDITION_MUTATORS, 'StringLiteral', 'ObjectLiteral'],
      reason:
        "encodeSseFrame's guards against its caller's own arguments (a frame that is not an object; data JSON cannot write: undefined, a function, a bigint, a cycle): the interface's frames come from JSON fixtures, and no peer hands a frame object to an encoder",
    },
    [
      "if (frame === null || typeof frame !== 'object')",
      "throw new HearthNetLocalError('invalid_sse_frame', 'a frame must be an object');",
      '} catch (error) {',
      // also the code in the refusal of undefined data (a line of its own)
      "'invalid_sse_frame',",
      '`frame data is not JSON: ${(error as Error).message}`,',
      '{ cause: error },',
      'if (json === undefined)',
    ],
  ),
  {
    pairs: PAIRS,
    file: SSE,
    span: { from: 'export function encodeSseComment(', until: 'function assertEventName(' },
    reason:
      'unreachable: WireImplementation has no member that writes an SSE comment (keepalive); the suite reads comments (parse-comments, parse-bare-comment-cr)',
  },
  ...sameReason(
    {
      pairs: PAIRS,
      file: SSE,
      span: { from: 'function assertEventName(', until: 'const CR =' },
      mutators: ['StringLiteral'],
      reason:
        "the code and message of the refusal of an event name that cannot be one SSE line: the suite asks that the encoder refuse it (encode-refused); the error it throws is the SDK's",
    },
    [
      "'invalid_sse_frame',",
      '`an SSE event name must be a non-empty single line, got ${JSON.stringify(name)}`,',
    ],
  ),
  // sse.ts: the parser
  {
    pairs: PAIRS,
    file: SSE,
    code: '#skipLeadingLf = false;',
    exact: true,
    mutators: ['BooleanLiteral'],
    reason:
      'a parser that starts as if the stream before it ended with CR drops an LF at the very start of the stream: that LF ends an empty line, which dispatches nothing (no data is pending and the event name is already empty), so no stream reads differently',
  },
  ...sameReason(
    {
      pairs: PAIRS,
      file: SSE,
      span: { from: 'constructor(options: SseParserOptions = {}) {', until: '/**' },
      mutators: [...CONDITION_MUTATORS, 'StringLiteral'],
      reason: EVENT_BOUND,
    },
    [
      'constructor(options: SseParserOptions = {}) {',
      'if (!Number.isSafeInteger(max) || max < 1) {',
      "'invalid_wire_options',",
      '`maxEventLength must be a positive integer, got ${String(max)}`,',
    ],
  ),
  ...sameReason(
    {
      pairs: PAIRS,
      file: SSE,
      span: { from: 'push(chunk: Uint8Array | string): SseItem[] {', until: '/**' },
      mutators: ['ConditionalExpression', 'StringLiteral', 'ObjectLiteral', 'BlockStatement'],
      reason:
        'a chunk pushed after finish(): the interface hands every chunk of a stream and then ends it once, so nothing is ever pushed after the end',
    },
    [
      'if (this.#finished)',
      "throw new HearthNetLocalError('sse_protocol', 'data after the end of the stream', {",
      "details: { reason: 'frame_after_terminal' },",
    ],
  ),
  {
    pairs: PAIRS,
    file: SSE,
    code: 'if (this.#finished) return [];',
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason: FINISHED_STATE,
  },
  ...sameReason(
    {
      pairs: PAIRS,
      file: SSE,
      span: { from: 'finish(): SseItem[] {', until: '#decode(bytes: Uint8Array' },
      mutators: ['ArrayDeclaration', 'BooleanLiteral'],
      reason: FINISHED_STATE,
    },
    ['if (this.#finished) return [];', 'this.#finished = true;', 'this.#pending = [];', 'this.#data = [];'],
  ),
  {
    pairs: PAIRS,
    file: SSE,
    code: "throw new HearthNetLocalError('sse_protocol', 'the event stream is not valid UTF-8', {",
    column: 53,
    mutators: ['StringLiteral'],
    reason: STREAM_REFUSAL_WORDS,
  },
  {
    pairs: PAIRS,
    file: SSE,
    code: 'if (this.#pending.length > 0) {',
    mutators: ['ConditionalExpression', 'EqualityOperator'],
    reason:
      'whether to prepend the pending pieces of the line: joining no pieces gives the empty string, so prepending them always reads every line the same',
  },
  ...sameReason(
    {
      pairs: PAIRS,
      file: SSE,
      mutators: ['ConditionalExpression', 'LogicalOperator', 'EqualityOperator'],
      reason:
        'when to search again for the next CR (LF): a search from `start` finds the same index whenever the one known is at or after `start`, or when none is left (-1), so searching more often finds the same line breaks (the condition only saves work; the mutant that never searches again after a CR at index 1 is killed by parse-bare-comment-cr)',
    },
    [
      'if (nextCr !== -1 && nextCr < start) nextCr = input.indexOf(CR, start);',
      'if (nextLf !== -1 && nextLf < start) nextLf = input.indexOf(LF, start);',
    ],
  ),
  {
    pairs: PAIRS,
    file: SSE,
    code: 'if (start < input.length) {',
    mutators: ['ConditionalExpression', 'EqualityOperator'],
    reason:
      'start never passes the end of the input (it is one past a line break, or two past a CRLF inside the input), so the only other case, start equal to the length, keeps an empty piece, which joins to nothing',
  },
  ...sameReason(
    {
      pairs: PAIRS,
      file: SSE,
      span: { from: '#feed(text: string): SseItem[] {', until: '#line(line: string' },
      mutators: [...CONDITION_MUTATORS, 'AssignmentOperator', 'StringLiteral', 'ObjectLiteral'],
      reason: EVENT_BOUND,
    },
    [
      'this.#pendingLength += rest.length;',
      'if (this.#pendingLength + this.#dataLength > this.#maxEventLength) {',
      "'sse_protocol',",
      '`an SSE event exceeds ${this.#maxEventLength} characters`,',
      "{ details: { reason: 'frame_too_large' } },",
    ],
  ),
  ...sameReason(
    {
      pairs: PAIRS,
      file: SSE,
      span: { from: '#line(line: string', until: '#dispatch(items: SseItem[]): void {' },
      mutators: [...CONDITION_MUTATORS, 'AssignmentOperator', 'StringLiteral', 'ObjectLiteral'],
      reason: EVENT_BOUND,
    },
    [
      'this.#dataLength += value.length + 1;',
      'if (this.#dataLength > this.#maxEventLength) {',
      "'sse_protocol',",
      '`an SSE event exceeds ${this.#maxEventLength} characters`,',
      "{ details: { reason: 'frame_too_large' } },",
    ],
  ),
  // sse.ts: the frame reader
  {
    pairs: PAIRS,
    file: SSE,
    code: 'options.maxEventLength === undefined ? {} : { maxEventLength: options.maxEventLength },',
    mutators: ['ConditionalExpression', 'EqualityOperator', 'ObjectLiteral'],
    reason: EVENT_BOUND,
  },
  {
    pairs: PAIRS,
    file: SSE,
    code: 'get terminal(): SseFrame | undefined {',
    mutators: ['BlockStatement'],
    reason:
      "unreachable: the reader's terminal getter; the interface reads the frames, not the reader's state",
  },
  {
    pairs: PAIRS,
    file: SSE,
    code: "throw new HearthNetLocalError('sse_protocol', 'the stream ended without a done or error frame', {",
    column: 53,
    mutators: ['StringLiteral'],
    reason: STREAM_REFUSAL_WORDS,
  },
  {
    pairs: PAIRS,
    file: SSE,
    code: '`frame "${item.event}" after the terminal "${this.#terminal.event}" frame`,',
    mutators: ['StringLiteral'],
    reason: STREAM_REFUSAL_WORDS,
  },
  {
    pairs: PAIRS,
    file: SSE,
    code: 'throw new HearthNetLocalError(\'sse_protocol\', `frame "${item.event}" data is not JSON`, {',
    column: 55,
    mutators: ['StringLiteral'],
    reason: STREAM_REFUSAL_WORDS,
  },
  {
    pairs: PAIRS,
    file: SSE,
    code: 'const frame = this.#validate === undefined ? raw : this.#validate(raw);',
    mutators: ['ConditionalExpression'],
    reason:
      "the interface's reader validates no frame against a schema (that is streamFrameValidator's, after the frame reader, which the hearthnet.node pair measures): without a validator the frame is the raw one either way",
  },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: "return { valid: false, reason: 'not_an_object', detail: (error as Error).message };",
    mutators: ['StringLiteral'],
    reason:
      "the reason code of a refused response verification: verifyResponse answers the verdict (valid false, which verify-response-status-out-of-range checks), and the reason is the SDK's diagnostic",
  },
  {
    pairs: PAIRS,
    file: ENVELOPE,
    code: SIGNER_CHECK,
    column: 7,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason: KEY_PAIR_ONLY,
  },
  ...[
    "typeof key === 'object' || key !== null",
    "!(key instanceof Uint8Array) || typeof key === 'object'",
  ].map((replacement) => ({
    pairs: PAIRS,
    file: ENVELOPE,
    code: SIGNER_CHECK,
    column: 7,
    mutators: ['LogicalOperator'],
    replacement,
    reason: KEY_PAIR_ONLY,
  })),
  {
    pairs: PAIRS,
    file: SSE,
    code: "if (typeof name !== 'string' || name === '' || LINE_BREAK.test(name)) {",
    span: { from: 'function assertEventName(', until: 'const CR =' },
    column: 7,
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      "drops the type check of an event name: the suite's encodeSseFrame takes the name as a string (WireImplementation types it string, and the encode-frame and encode-refused cases read frame.event with readString), so `typeof name !== 'string'` is never true there; the empty and line-break checks, which the encode-refused cases reach, stay",
  },
];
