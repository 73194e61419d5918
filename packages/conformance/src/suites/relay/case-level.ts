import { type FixtureCase, readString } from '../../fixtures/fixture-file.js';
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

/**
 * The suite version a fixture case was added in: its `since` when it has one (cases added after a
 * fixture file's first release carry it), else `fallback`, the version that brought the file's cases.
 */
export function sinceOf(entry: FixtureCase, location: string, fallback: string): string {
  return entry['since'] === undefined ? fallback : readString(entry['since'], `${location}.since`);
}
