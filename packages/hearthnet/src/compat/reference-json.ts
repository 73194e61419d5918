import {
  describeType,
  dumpPythonJson,
  PythonJsonSyntaxError,
  type PythonJsonSyntaxReason,
  PythonJsonUnencodableError,
  parsePythonJson,
} from '@agentwire/internal';
import { formatJsonPath } from '../canonical-json/strict-json.js';
import { HearthNetLocalError } from '../errors.js';

/**
 * How deep arrays and objects may nest: Python's default recursion limit, so every nesting `json.loads`
 * reads (≈ 990 levels, a little less the deeper its caller's stack) is read here too. A resource
 * limit only: no fixture pins it (docs/decisions.md).
 */
const MAX_DEPTH = 1000;

/** How HearthNet words each refusal of the shared reader in its `reference_json_syntax` message. */
const SYNTAX_MESSAGES: Readonly<Record<PythonJsonSyntaxReason, string>> = {
  expected_value: 'expected a JSON value',
  invalid_number: 'invalid number',
  extra_data: 'unexpected data after the JSON value',
  expected_key: 'expected a string key',
  expected_colon: "expected ':'",
  expected_object_delimiter: "expected ',' or '}'",
  expected_array_delimiter: "expected ',' or ']'",
  unterminated_string: 'unterminated string',
  control_character: 'control character in a string',
  invalid_escape: 'invalid escape',
  invalid_unicode_escape: 'invalid escape',
  // Only with an integer digit limit, which HearthNet does not set.
  integer_too_long: 'integer too long',
  float_out_of_range: 'a float beyond the double range',
  nesting_too_deep: 'nested too deeply',
};

/**
 * Parses JSON the way Python's `json.loads` types its numbers, so the reference's event bytes can be
 * re-derived: an integer token is a `number` (a `bigint` beyond 2⁵³), a token with a fraction or an
 * exponent is a float — a plain `number`, or a `PythonFloat` when its value is integral
 * (`1.0`, `-0.0`, `1e16`). Duplicate keys keep the last value, as Python does. `NaN` and `Infinity`
 * (which Python also reads) are refused.
 *
 * @throws {HearthNetLocalError} `reference_json_syntax`
 * @example
 * const event = parseReferenceJson(body); // then verifyReferenceEvent(event)
 */
export function parseReferenceJson(text: string): unknown {
  if (typeof text !== 'string') throw syntaxError('expected JSON text', 0);
  try {
    return parsePythonJson(text, {
      dicts: 'object',
      integers: 'safe-number',
      integralFloat: (value) => new PythonFloat(value),
      nonFinite: 'refuse',
      maxDepth: MAX_DEPTH,
    });
  } catch (error) {
    if (error instanceof PythonJsonSyntaxError) {
      throw syntaxError(SYNTAX_MESSAGES[error.reason], error.offset, error);
    }
    throw error;
  }
}

/** `reference_json_syntax` at UTF-16 offset `details.offset`. */
function syntaxError(message: string, offset: number, cause?: unknown): HearthNetLocalError {
  return new HearthNetLocalError('reference_json_syntax', `${message} at offset ${offset}`, {
    details: { offset },
    ...(cause === undefined ? {} : { cause }),
  });
}

const LINE_BREAK = /[\r\n]/;

/**
 * One SSE frame exactly as the reference's `encode_sse_frame(data, event)` writes it: an
 * `event: <name>` line when `event` is a non-empty string (Python's `if event:`), then
 * `data: <json>` and an empty line, separated by `\n`. The JSON is Python
 * `json.dumps(data, separators=(",", ":"))`: `ensure_ascii`, keys in insertion order (not sorted),
 * float `repr` (`PythonFloat` for integral floats). It never holds a raw line break.
 *
 * @throws {HearthNetLocalError} `invalid_reference_sse_frame` when `event` is not a string or holds a line
 *   break (the reference would write a frame no reader can split).
 * @throws {HearthNetLocalError} `python_json_unencodable` for data JSON cannot carry (a non-finite number, a
 *   cycle).
 * @example
 * encodeReferenceSseFrame({ text: 'Grüße', n: new PythonFloat(1) }); // 'data: {"text":"Gr\\u00fc\\u00dfe","n":1.0}\n\n'
 * encodeReferenceSseFrame({ done: true }, 'done'); // 'event: done\ndata: {"done":true}\n\n'
 */
export function encodeReferenceSseFrame(data: unknown, event?: string): string {
  if (event !== undefined && (typeof event !== 'string' || LINE_BREAK.test(event))) {
    throw new HearthNetLocalError(
      'invalid_reference_sse_frame',
      `an SSE event name must be a single line of text, got ${JSON.stringify(event)}`,
    );
  }
  const json = pythonAsciiJson(data, { sortKeys: false });
  return event ? `event: ${event}\ndata: ${json}\n\n` : `data: ${json}\n\n`;
}

/** Options of {@link pythonAsciiJson}. */
export interface PythonAsciiJsonOptions {
  /** Sort object keys by code point at every level (`sort_keys=True`); otherwise keep insertion order. */
  readonly sortKeys: boolean;
}

/**
 * Python's `json.dumps(value, ensure_ascii=True, separators=(",", ":"))`, with `sort_keys` as asked:
 * every character outside U+0020–U+007E is a lower-case `\uXXXX` escape (astral characters as
 * surrogate pairs), floats use Python's `repr` (`pythonFloatRepr`). This is the reference's
 * event and snapshot signing form ("B-form", with sorted keys) and its invite blob form (insertion
 * order).
 *
 * Numbers: an integral `number` or a `bigint` is a Python `int` (plain digits), any other `number`
 * and a `PythonFloat` a Python `float`. Python would write non-finite floats as `NaN` or
 * `Infinity`, which is not JSON; they are refused here.
 *
 * @throws {HearthNetLocalError} `python_json_unencodable` for non-finite numbers, cycles and values JSON
 *   cannot carry.
 * @example
 * pythonAsciiJson({ b: 'é', a: 0.5 }, { sortKeys: true }); // '{"a":0.5,"b":"\\u00e9"}'
 */
export function pythonAsciiJson(value: unknown, options: PythonAsciiJsonOptions): string {
  try {
    return dumpPythonJson(value, {
      separators: [',', ':'],
      sortKeys: options.sortKeys,
      nonFinite: 'refuse',
      floatOf: (item) => (item instanceof PythonFloat ? item.value : undefined),
    });
  } catch (error) {
    if (error instanceof PythonJsonUnencodableError) throw unencodable(error);
    throw error;
  }
}

/** The `python_json_unencodable` error for what the writer refused: its message starts with the JSON path. */
function unencodable(error: PythonJsonUnencodableError): HearthNetLocalError {
  const at = formatJsonPath(error.path);
  const message =
    error.reason === 'non_finite'
      ? `${String(error.value)} is not a finite number`
      : error.reason === 'cycle'
        ? 'the value contains itself'
        : `${describeType(error.value)} has no JSON form`;
  return new HearthNetLocalError('python_json_unencodable', `${at}: ${message}`, { path: at, cause: error });
}

/**
 * A Python `float` whose value is integral (`1.0`, `-0.0`, `1e+16`): JavaScript numbers cannot tell
 * `1.0` from `1`, and the reference's event bytes write them differently. `parseReferenceJson` wraps
 * such tokens; non-integral numbers stay plain `number`s (always floats in Python).
 *
 * @example
 * pythonAsciiJson({ a: new PythonFloat(1), b: 1 }, { sortKeys: true }); // '{"a":1.0,"b":1}'
 */
export class PythonFloat {
  readonly value: number;

  constructor(value: number) {
    this.value = value;
  }
}
