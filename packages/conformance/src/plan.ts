import { ConformanceError } from './errors.js';
import type { ConformanceCase, ConformanceSuite } from './suite.js';

/** Options shared by `runSuite` and the runner adapters. */
export interface SuiteRunOptions<Ctx> {
  /** Case ids known to fail: they pass when they fail, and fail (as stale) when they pass. */
  readonly expectedFailures?: readonly string[];
  /** Longest time one case may take, in milliseconds (setup excluded). Default 10 000. */
  readonly timeoutMs?: number;
  /** Runs only the cases it accepts; the others are left out of the results. */
  readonly filter?: (testCase: ConformanceCase<Ctx>) => boolean;
}

/** The cases one run executes, decided before the first one starts. */
export interface SuitePlan<Ctx> {
  readonly cases: readonly ConformanceCase<Ctx>[];
  readonly expectedFailures: ReadonlySet<string>;
  /** Ids in `expectedFailures` that no case of the suite has. */
  readonly unknownExpectedFailures: readonly string[];
  readonly timeoutMs: number;
}

export const DEFAULT_CASE_TIMEOUT_MS = 10_000;
// setTimeout fires at once for delays above 2^31 - 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Checks a suite and the run options, and selects the cases to run. */
export function planSuite<Ctx>(
  suite: ConformanceSuite<Ctx>,
  options: SuiteRunOptions<Ctx> = {},
): SuitePlan<Ctx> {
  const { expectedFailures = [], timeoutMs = DEFAULT_CASE_TIMEOUT_MS, filter } = options;
  if (!(typeof timeoutMs === 'number' && timeoutMs > 0 && timeoutMs <= MAX_TIMER_MS)) {
    throw new ConformanceError(
      'invalid_run_option',
      `timeoutMs must be a number of milliseconds in (0, ${MAX_TIMER_MS}], got ${String(timeoutMs)}`,
      { path: 'timeoutMs' },
    );
  }
  if (!Array.isArray(expectedFailures) || !expectedFailures.every((id) => typeof id === 'string')) {
    throw new ConformanceError('invalid_run_option', 'expectedFailures must be an array of case ids', {
      path: 'expectedFailures',
    });
  }
  const ids = new Set<string>();
  for (const testCase of suite.cases) {
    if (ids.has(testCase.id)) {
      throw new ConformanceError(
        'duplicate_case_id',
        `suite ${suite.name} declares case ${testCase.id} more than once`,
        { details: { suite: suite.name, caseId: testCase.id } },
      );
    }
    ids.add(testCase.id);
  }
  return {
    cases: filter ? suite.cases.filter(filter) : suite.cases,
    expectedFailures: new Set(expectedFailures),
    unknownExpectedFailures: [...new Set(expectedFailures)].filter((id) => !ids.has(id)),
    timeoutMs,
  };
}
