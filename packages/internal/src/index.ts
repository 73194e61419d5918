// `@agentwire/internal`: what the published packages would otherwise each write again. Private: tsup
// bundles it into every package that imports it, and it is never published. Node-only helpers are in
// `@agentwire/internal/node`.
export {
  decodeBase64,
  decodeBase64PythonLenient,
  decodeBase64Url,
  decodeHex,
  encodeBase64,
  encodeBase64Url,
  encodeHex,
  isRefusal,
  type PythonLenientOptions,
  type Refusal,
} from './encoding.js';
export {
  compareCodePoints,
  isPythonTruthy,
  pythonFloatRepr,
  pythonJsonString,
  pythonStr,
  pythonStringRepr,
} from './python.js';
export {
  dumpPythonJson,
  type PythonJsonDumpOptions,
  type PythonJsonParseOptions,
  PythonJsonSyntaxError,
  type PythonJsonSyntaxReason,
  PythonJsonUnencodableError,
  type PythonJsonUnencodableReason,
  parsePythonJson,
} from './python-json.js';
export {
  describeType,
  describeValue,
  isJsonObject,
  isPlainObject,
  messageOf,
  messageWithCause,
} from './values.js';
