// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the entries quote source lines, template placeholders included
// Equivalents of the `compat` pair (suite hearthnet.compat × the reference dialects), in the format of
// mutation/equivalents.mjs, which lists them with the rest. Each mutant below was read against the suite's interface
// (CompatImplementation: JSON texts in, bytes, signatures, verdicts and converted envelopes out).
import { sameReason } from './shared.mjs';

const EVENT = 'packages/hearthnet/src/compat/reference-event.ts';
const JSON_FILE = 'packages/hearthnet/src/compat/reference-json.ts';
const SNAPSHOT = 'packages/hearthnet/src/compat/reference-snapshot.ts';
const PAIRS = ['compat'];

/** What a refusal says besides its code and reason. */
const DIAGNOSTIC =
  "what a refusal of a reference artefact says besides its code and its reason (the message, the JSON path it names, its details): the reference dialect fixes none of them (the reference's own error wording is not to be demanded), the suite checks the code and the reason, and which field a diagnostic names is the SDK's";

/** @param {object} common @param {[string, number][]} places a line's text and the mutant's column */
function atColumns(common, places) {
  return places.map(([code, column]) => ({ ...common, code, column }));
}

const REFERENCE_EVENT = 'packages/hearthnet/src/compat/reference-event.ts';

export default [
  // ---------- reference-event.ts ----------
  ...sameReason(
    {
      pairs: PAIRS,
      file: EVENT,
      mutators: ['StringLiteral', 'ObjectLiteral', 'ArrayDeclaration'],
      reason: DIAGNOSTIC,
    },
    [
      "path: '$',",
      '`${formatJsonPath([field])} must be ${expected}`,',
      '{ path: formatJsonPath([field]) },',
      "fail(field, 'a non-negative integer');",
      "fail('payload', 'a JSON object');",
      '`the reference log knows no event type ${JSON.stringify(received.event_type)}`,',
      "const eventId = convertId(event.event_id, '$.event_id', referenceEventIdToUlid);",
      "path: '$.issued_at',",
      "`${formatJsonPath(path)}: the integer ${value} does not fit the contract's 53 bits`,",
      'value: plainJson(item, [...path, key]),',
      "'a reference event id is 26 RFC 4648 base32 characters (A–Z 2–7)',",
      '{ details: { value: id } },',
      "`the id's time ${timeMs} ms does not fit a ULID's 48 bits`,",
      "'expected a reference timestamp such as 2026-05-26T08:14:22.281734Z',",
      '{ details: { value: text } },',
      'details: { value: text },',
    ],
  ),
  ...atColumns(
    {
      pairs: PAIRS,
      file: EVENT,
      mutators: ['StringLiteral', 'ObjectLiteral', 'ArrayDeclaration'],
      reason: DIAGNOSTIC,
    },
    [
      ["return refuse('malformed_event', 'a reference event must be a JSON object');", 38],
      // the message and the `{ path: '$' }` of a value that is no object (column 35 is the code)
      [
        "throw new HearthNetLocalError('malformed_reference_event', 'a reference event must be a JSON object', {",
        64,
      ],
      [
        "throw new HearthNetLocalError('malformed_reference_event', 'a reference event must be a JSON object', {",
        107,
      ],
      [
        "for (const field of STRING_FIELDS) if (typeof event[field] !== 'string') fail(field, 'a string');",
        88,
      ],
      ["if (signed && typeof event.signature !== 'string') fail('signature', 'a string');", 59],
      ["if (signed && typeof event.signature !== 'string') fail('signature', 'a string');", 72],
      ["if (absent !== undefined) return refuse('malformed_event', `the event has no ${absent}`);", 62],
      [": refuse('unsigned', 'the event carries no signature');", 28],
      [
        'if (isReferenceEventId(id)) data[field] = convertId(id, `$.payload.${field}`, referenceEventIdToUlid);',
        61,
      ],
      ['if (Array.isArray(value)) return value.map((item, index) => plainJson(item, [...path, index]));', 79],
      [
        "return { reason: 'malformed_signature', message: `a signature has 64 bytes, got ${decoded.length}` };",
        54,
      ],
      [
        "return { reason: 'signature_mismatch', message: \"the signature does not verify under the author's key\" };",
        53,
      ],
      [
        "throw new HearthNetLocalError('invalid_reference_timestamp', `${text} is not a real UTC time`, {",
        66,
      ],
      [
        "throw new HearthNetLocalError('invalid_reference_timestamp', `${text} is not a real UTC time`, {",
        100,
      ],
    ],
  ),
  {
    pairs: PAIRS,
    file: EVENT,
    span: { from: 'function fromDataPath(path: string): string {', until: '/** RFC 4648 base32' },
    mutators: ['BlockStatement', 'Regex', 'StringLiteral'],
    reason: `${DIAGNOSTIC} (here the path an invalid_contract_event refusal names, re-spelt from $.data to $.payload)`,
  },
  ...["if (typeof value !== 'object' || value === null || Array.isArray(value)) {"].map((code) => ({
    pairs: PAIRS,
    file: EVENT,
    code,
    column: 7,
    mutators: ['ConditionalExpression'],
    replacement: 'false',
    reason:
      "dropping only `typeof value !== 'object'` (null and arrays are still stopped by the other two tests): a number, string or boolean then reaches the checks after it, which refuse it with the same answer (assertReferenceEvent: malformed_reference_event at the first field; verifyReferenceEvent: malformed_event for the absent fields), so only the path a diagnostic names differs. The other two `false` mutants at this column are killed by the not-object cases",
  })),
  {
    pairs: PAIRS,
    file: EVENT,
    code: "if (!(typeof number === 'number' && Number.isSafeInteger(number) && number >= 0)) {",
    column: 11,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      "`typeof number === 'number'` replaced by true: Number.isSafeInteger is false for every value that is not a number, so the test decides nothing the next one does not (the other `true` mutants at this column are killed by the lamport-string and lamport-fraction cases)",
  },
  {
    pairs: PAIRS,
    file: EVENT,
    code: 'if (missing.length === 0) return received;',
    mutators: ['ConditionalExpression'],
    reason:
      'a shortcut: with no defaulted field missing, the copy made instead has the same own fields and values as the event received, and is checked, signed over and returned the same',
  },
  ...sameReason(
    {
      pairs: PAIRS,
      file: EVENT,
      mutators: ['StringLiteral'],
      reason:
        'the placeholder signature handed to validateEvent: the contract envelope schema takes any string there, and neither conversion returns it (toContract returns the unsigned envelope, fromContract builds a new object without a signature)',
    },
    [
      "const verdict = validateEvent({ ...unsigned, signature: '' });",
      "const verdict = validateEvent({ signature: '', ...event });",
    ],
  ),
  ...sameReason(
    {
      pairs: PAIRS,
      file: EVENT,
      mutators: ['ArrayDeclaration'],
      reason:
        "a list holding a string instead of an empty one where there is no location object: rename on a string primitive finds no 'lon' or 'lng' own property and does nothing",
    },
    [
      'if (!isJsonObject<JsonObject>(holder)) return [];',
      'return isJsonObject<JsonObject>(location) ? [location] : [];',
    ],
  ),
  {
    pairs: PAIRS,
    file: EVENT,
    code: "const match = typeof text === 'string' ? REFERENCE_TIMESTAMP.exec(text) : null;",
    mutators: ['ConditionalExpression'],
    reason:
      "a timestamp reaches this line only as a string: the suite's timestamp cases pass fixture text (CompatImplementation.timestampToContract takes a string) and the event conversion has checked issued_at is a string, so the exec branch is taken either way",
  },
  {
    pairs: PAIRS,
    file: EVENT,
    code: "const millis = (match[2] ?? '').padEnd(6, '0').slice(0, 3).replace(/0+$/, '');",
    column: 45,
    mutators: ['StringLiteral'],
    reason:
      'padding the fraction with zeros before cutting it to three digits adds only trailing zeros, which the /0+$/ strip then removes: the millisecond digits are the same without the padding',
  },

  // ---------- reference-json.ts ----------
  {
    pairs: PAIRS,
    file: JSON_FILE,
    span: { from: 'const SYNTAX_MESSAGES', until: "Parses JSON the way Python's" },
    mutators: ['StringLiteral', 'ObjectLiteral'],
    reason: `${DIAGNOSTIC} (here the words of each reference_json_syntax message)`,
  },
  {
    pairs: PAIRS,
    file: JSON_FILE,
    code: "if (typeof text !== 'string') throw syntaxError('expected JSON text', 0);",
    mutators: ['ConditionalExpression', 'StringLiteral', 'BlockStatement'],
    reason:
      'the guard for a caller that passes no text: every member of CompatImplementation takes its JSON as a string, so the suite never reaches it (and its message is a diagnostic)',
  },
  {
    pairs: PAIRS,
    file: JSON_FILE,
    code: "dicts: 'object',",
    mutators: ['StringLiteral'],
    reason:
      "parsePythonJson reads objects as Maps only for dicts === 'map'; any other value, '' included, reads them as plain objects, as 'object' does",
  },
  {
    pairs: PAIRS,
    file: JSON_FILE,
    code: 'if (error instanceof PythonJsonSyntaxError) {',
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      'parsePythonJson refuses text only with PythonJsonSyntaxError (its depth limit included; the integral-float callback cannot throw), so the branch that rethrows other errors is never taken',
  },
  ...atColumns(
    {
      pairs: PAIRS,
      file: JSON_FILE,
      mutators: ['StringLiteral', 'ObjectLiteral'],
      reason: `${DIAGNOSTIC} (here the message, details.offset and cause of reference_json_syntax; column 34 is the code)`,
    },
    [
      ["return new HearthNetLocalError('reference_json_syntax', `${message} at offset ${offset}`, {", 59],
      ["return new HearthNetLocalError('reference_json_syntax', `${message} at offset ${offset}`, {", 93],
    ],
  ),
  ...sameReason(
    {
      pairs: PAIRS,
      file: JSON_FILE,
      mutators: ['ObjectLiteral', 'ConditionalExpression', 'EqualityOperator'],
      reason: `${DIAGNOSTIC} (here details.offset and the cause of reference_json_syntax)`,
    },
    ['details: { offset },', '...(cause === undefined ? {} : { cause }),'],
  ),
  {
    pairs: PAIRS,
    file: JSON_FILE,
    code: "if (event !== undefined && (typeof event !== 'string' || LINE_BREAK.test(event))) {",
    column: 31,
    mutators: ['ConditionalExpression'],
    reason:
      "the guard against an event name that is not a string: the suite's sse-frame cases pass the fixture's event text or none (CompatImplementation.sseFrame takes string | undefined), so it never fires",
  },
  {
    pairs: PAIRS,
    file: JSON_FILE,
    code: '`an SSE event name must be a single line of text, got ${JSON.stringify(event)}`,',
    mutators: ['StringLiteral'],
    reason: DIAGNOSTIC,
  },
  {
    pairs: PAIRS,
    file: JSON_FILE,
    code: 'const json = pythonAsciiJson(data, { sortKeys: false });',
    mutators: ['ObjectLiteral'],
    reason:
      'an empty options object leaves sortKeys undefined, which the writer reads as false (it sorts only when sortKeys === true): insertion order either way',
  },
  {
    pairs: PAIRS,
    file: JSON_FILE,
    code: "nonFinite: 'refuse',",
    mutators: ['StringLiteral'],
    span: {
      from: 'export function parseReferenceJson',
      until: '/** `reference_json_syntax` at UTF-16 offset',
    },
    reason:
      'whether the reader takes the NaN and Infinity tokens Python reads (the SDK refuses them): JSON has no such tokens, the reference dialect does not say, and the suite does not ask',
  },
  {
    pairs: PAIRS,
    file: JSON_FILE,
    code: "nonFinite: 'refuse',",
    mutators: ['StringLiteral'],
    span: { from: 'export function pythonAsciiJson', until: '/** The `python_json_unencodable` error' },
    reason:
      'unreachable from the suite: every value its members hand the writer was read by parseReferenceJson, which refuses NaN, Infinity and out-of-range floats, so the writer never meets a non-finite number',
  },
  {
    pairs: PAIRS,
    file: JSON_FILE,
    span: { from: 'export function pythonAsciiJson', until: '/** The `python_json_unencodable` error' },
    code: '} catch (error) {',
    mutators: ['BlockStatement'],
    reason:
      'unreachable from the suite: the writer refuses only non-finite numbers, cycles and values JSON has no form for, and every value the suite hands it was read by parseReferenceJson (finite numbers, bigints, strings, booleans, null, PythonFloat, plain arrays and objects), so it never throws',
  },
  {
    pairs: PAIRS,
    file: JSON_FILE,
    code: 'if (error instanceof PythonJsonUnencodableError) throw unencodable(error);',
    reason:
      'unreachable from the suite: the writer never throws for a value parseReferenceJson read (finite numbers, bigints, strings, booleans, null, PythonFloat, plain arrays and objects)',
  },
  {
    pairs: PAIRS,
    file: JSON_FILE,
    span: {
      from: 'function unencodable(error: PythonJsonUnencodableError)',
      until: 'A Python `float` whose value is integral',
    },
    reason:
      'unreachable from the suite: the python_json_unencodable error of a value the writer refuses, and the writer never refuses a value parseReferenceJson read (finite numbers, bigints, strings, booleans, null, PythonFloat, plain arrays and objects)',
  },

  // ---------- reference-snapshot.ts ----------
  ...sameReason(
    {
      pairs: PAIRS,
      file: SNAPSHOT,
      mutators: ['StringLiteral', 'ObjectLiteral', 'ArrayDeclaration'],
      reason: DIAGNOSTIC,
    },
    [
      "'a reference snapshot must be a JSON object',",
      "{ path: '$' },",
      '`${formatJsonPath(path)} must be ${expected}`,',
      '{ path: formatJsonPath(path) },',
      "fail([field], 'a non-negative integer');",
      "if (!isPlainObject(views)) fail(['views'], 'a JSON object');",
      "if (!isPlainObject(state)) fail(['views', name], 'a JSON object');",
      ": refuse('unsigned', 'the snapshot carries no signature');",
    ],
  ),
  ...atColumns(
    {
      pairs: PAIRS,
      file: SNAPSHOT,
      mutators: ['StringLiteral', 'ArrayDeclaration'],
      reason: DIAGNOSTIC,
    },
    [
      ["if (typeof value[field] !== 'string') fail([field], 'a string');", 48],
      ["if (typeof value[field] !== 'string') fail([field], 'a string');", 57],
      ["if (signed && typeof value.signature !== 'string') fail(['signature'], 'a string');", 59],
      ["if (signed && typeof value.signature !== 'string') fail(['signature'], 'a string');", 60],
      ["if (signed && typeof value.signature !== 'string') fail(['signature'], 'a string');", 74],
    ],
  ),
  {
    pairs: PAIRS,
    file: SNAPSHOT,
    code: "if (!(typeof number === 'number' && Number.isSafeInteger(number) && number >= 0)) {",
    column: 11,
    mutators: ['ConditionalExpression'],
    replacement: 'true',
    reason:
      "`typeof number === 'number'` replaced by true: Number.isSafeInteger is false for every value that is not a number, so the test decides nothing the next one does not",
  },
  {
    pairs: PAIRS,
    file: SNAPSHOT,
    code: 'return options?.acceptUnsigned === true',
    mutators: ['OptionalChaining'],
    reason:
      'options defaults to {} and the suite always passes an options object ({ acceptUnsigned }); only an explicit null, which the typed parameter does not allow, would tell the two apart',
  },
  {
    pairs: PAIRS,
    file: REFERENCE_EVENT,
    code: 'if (!Object.hasOwn(object, from) || Object.hasOwn(object, to)) return;',
    exact: true,
    span: { from: 'function rename(', until: 'function plainJson(' },
    column: 7,
    mutators: ['ConditionalExpression', 'LogicalOperator'],
    reason:
      "renames also when the object holds no `from` (a no-op: no key changes, the object is rebuilt in the same order) or already holds `to`: these differ only for a payload that carries both names of one field (`to` and `recipient` in a chat.message.sent, `lon` and `lng` in a market location), which the reference never writes (it writes `to` and `lon` alone) and the contract never holds (`recipient` and `lng` alone); the dialect's rule is a rename, `to` ⇄ `recipient`, `lon` ⇄ `lng` (docs/hearthnet-events.md, the compat fixture's convert cases), and says nothing of a payload where both names are taken, so whether the converter keeps both or lets one replace the other is the converter's",
  },
];
