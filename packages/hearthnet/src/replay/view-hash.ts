import { canonicalJson } from '../canonical-json/index.js';
import { blake3Hex } from '../hashing/index.js';

/**
 * The hash of a view: `blake3:` + the lowercase hex BLAKE3 of its canonical JSON (contract §1.2,
 * §1.4). Two nodes with the same events have the same view hashes.
 *
 * @throws {HearthNetLocalError} when `view` holds something canonical JSON cannot encode.
 * @example
 * viewHash(replay(events, { communityId }).views.membership); // 'blake3:…'
 */
export function viewHash(view: unknown): string {
  return `blake3:${blake3Hex(canonicalJson(view))}`;
}
