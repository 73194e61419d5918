export { isPythonTruthy } from '../python/truthy.js';
export { sessionSourceFromDict } from './from-dict.js';
export { sessionSourceFromWire } from './from-wire.js';
export {
  BUILTIN_PLATFORMS,
  canonicalPlatform,
  FALLBACK_PLATFORM,
  isKnownPlatform,
  PLUGIN_PLATFORMS,
} from './platforms.js';
export { type SessionSource, type SessionSourceWire, sessionSourceWireSchema } from './schema.js';
export { sessionSourceToWire } from './to-wire.js';
