import { ConformanceError } from '../errors.js';
import type { ConformanceSuite } from '../suite.js';

/**
 * Reads an expected-failures baseline: one case id per line; blank lines are ignored and `#` starts a
 * comment (whole-line or trailing).
 *
 * @example
 * ```text
 * # known gaps of our connector, tracked in #42
 * relay.live.auth.expired-token
 * relay.live.outbound.prompt   # prompts arrive in 2.0
 * ```
 */
export function parseExpectedFailures(text: string): string[] {
  const ids = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const id = line.replace(/#.*$/, '').trim();
    if (id !== '') ids.add(id);
  }
  return [...ids];
}

/**
 * Hands each suite the baseline ids that name its cases.
 *
 * @throws {ConformanceError} `cli_usage`: when an id names no case of any suite to run (a typo or a renamed
 *   case), since such a baseline entry could never go stale.
 */
export function expectedFailuresBySuite(
  ids: readonly string[],
  suites: readonly ConformanceSuite<unknown>[],
  file: string,
): ReadonlyMap<ConformanceSuite<unknown>, readonly string[]> {
  const bySuite = new Map<ConformanceSuite<unknown>, string[]>();
  const claimed = new Set<string>();
  for (const suite of suites) {
    const caseIds = new Set(suite.cases.map((c) => c.id));
    const own = ids.filter((id) => caseIds.has(id));
    for (const id of own) claimed.add(id);
    bySuite.set(suite, own);
  }
  const unknown = ids.filter((id) => !claimed.has(id));
  if (unknown.length > 0) {
    throw new ConformanceError(
      'cli_usage',
      `${file} names cases that no suite to run has: ${unknown.join(', ')}`,
    );
  }
  return bySuite;
}
