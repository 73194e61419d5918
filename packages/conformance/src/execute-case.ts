import { ConformanceError } from './errors.js';
import type { ConformanceCase, SuiteSetup } from './suite.js';

/** How a case ended. */
export type CaseStatus = 'passed' | 'failed' | 'skipped' | 'expected-failure' | 'stale';

/** The outcome of one case, with the thrown value itself (reports keep only its name and message). */
export interface CaseOutcome {
  readonly status: CaseStatus;
  readonly durationMs: number;
  /** What the case threw (`failed`, `expected-failure`) or a `stale_expected_failure` `ConformanceError` (`stale`). */
  readonly error?: unknown;
  /** Why the case was skipped, or why its failure was expected. */
  readonly reason?: string;
}

/** Runs one case against a set-up implementation, applying capabilities, expected failures and the timeout. */
export async function executeCase<Ctx>(
  testCase: ConformanceCase<Ctx>,
  setup: SuiteSetup<Ctx>,
  expectedToFail: boolean,
  timeoutMs: number,
): Promise<CaseOutcome> {
  if (testCase.requires !== undefined && !setup.capabilities?.has(testCase.requires)) {
    return {
      status: 'skipped',
      durationMs: 0,
      reason: `the implementation lacks capability "${testCase.requires}"`,
    };
  }
  const started = performance.now();
  let error: unknown;
  let threw = false;
  try {
    await withTimeout(() => testCase.run(setup.ctx), testCase.id, timeoutMs);
  } catch (caught) {
    threw = true;
    error = caught;
  }
  const durationMs = performance.now() - started;
  if (!expectedToFail)
    return threw ? { status: 'failed', durationMs, error } : { status: 'passed', durationMs };
  return threw
    ? { status: 'expected-failure', durationMs, error, reason: 'listed in expectedFailures' }
    : { status: 'stale', durationMs, error: staleExpectedFailure(testCase.id) };
}

function staleExpectedFailure(caseId: string): ConformanceError {
  return new ConformanceError(
    'stale_expected_failure',
    `case ${caseId} is listed in expectedFailures but passed; remove it from the list`,
    { details: { caseId } },
  );
}

async function withTimeout(
  action: () => void | Promise<void>,
  caseId: string,
  timeoutMs: number,
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ConformanceError('case_timeout', `case ${caseId} did not finish within ${timeoutMs} ms`, {
            retryable: true,
            details: { caseId, timeoutMs },
          }),
        ),
      timeoutMs,
    );
  });
  try {
    await Promise.race([Promise.resolve().then(action), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
