// Internal barrel: the pieces of Python semantics the gateway's behaviour rests on, in one place.
// The package root does not export it; the public names (`isPythonTruthy`, `pythonJsonDumps`) are
// re-exported by the folders that document them (`session-source`, `ndjson`).
export { type PythonIntOutcome, pythonIntOf } from './int.js';
export { pythonJsonDumps } from './json-dumps.js';
export {
  MAX_PYTHON_JSON_NESTING,
  type PythonJsonDict,
  type PythonJsonValue,
  parsePythonJsonExact,
} from './json-exact.js';
export { parsePythonJson } from './json-loads.js';
export { rstripChar } from './rstrip.js';
export { pythonStr } from './str.js';
export { isPythonTruthy } from './truthy.js';
export { isPythonBlankLine, pythonStrip } from './whitespace.js';
