import type { JsonValue } from '../json/index.js';
import { isPythonTruthy } from '../python/index.js';

const NEWER_FLAGS = ['is_bot', 'message_is_edit', 'one_to_one_verified'] as const;

/**
 * Copies the `SessionSource` fields newer gateways added from a source object, the same way for every
 * reader of this SDK: `prospective_thread_id` as is, `is_bot`, `message_is_edit` and
 * `one_to_one_verified` as Python `bool()`, each only when present and not `null`. A baseline gateway
 * ignores all four.
 */
export function copyNewerFields(
  src: { readonly [key: string]: JsonValue },
  into: Record<string, JsonValue>,
): void {
  const prospective = src['prospective_thread_id'];
  if (Object.hasOwn(src, 'prospective_thread_id') && prospective !== null && prospective !== undefined) {
    into['prospective_thread_id'] = prospective;
  }
  for (const key of NEWER_FLAGS) {
    const flag = src[key];
    if (Object.hasOwn(src, key) && flag !== null && flag !== undefined) into[key] = isPythonTruthy(flag);
  }
}
