// Internal barrel: JSON data helpers shared by the relay folders. The package root does not export it;
// the public names (`JsonValue`, `jsonValueSchema`) are re-exported by `descriptor/index.ts`.
export { jsonPath } from './json-path.js';
export { isJsonValue, type JsonValue, jsonValueSchema } from './json-value.js';
export { copyJsonValue, type JsonValueCopy, type NotJsonValue, toJsonValue } from './to-json-value.js';
