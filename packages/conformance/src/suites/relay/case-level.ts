import type { ConformanceLevel } from '../../suite.js';

/**
 * Fixture tags of cases that check this SDK's own advice rather than what the gateway does: `sdk`
 * (options and refusals the gateway does not have) and `stricter-than-reference` (inputs the gateway
 * accepts but a careful implementation refuses).
 */
const ADVISORY_TAGS: ReadonlySet<string> = new Set(['sdk', 'stricter-than-reference']);

/** `recommended` for a case carrying an advisory tag, else `required`. */
export function levelForTags(tags: readonly string[]): ConformanceLevel {
  return tags.some((tag) => ADVISORY_TAGS.has(tag)) ? 'recommended' : 'required';
}
