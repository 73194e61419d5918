import { formatValue } from './assert.js';
import { ConformanceError, suiteSetupError, unknownExpectedFailureError } from './errors.js';
import type {
  CapabilityNeed,
  ConformanceCase,
  ConformanceLevel,
  ConformanceSuite,
  SuiteSetup,
} from './suite.js';

/**
 * How a case ended. `skipped`: it needs a capability the implementation does not declare;
 * `unobserved`: the same, for a capability that observes the implementation's effect (the suite's
 * `needs` marks it `observation`), so the run is reduced rather than complete.
 */
export type CaseStatus = 'passed' | 'failed' | 'skipped' | 'unobserved' | 'expected-failure' | 'stale';

/** The outcome of one case, with the thrown value itself (reports keep only its name and message). */
export interface CaseOutcome {
  readonly status: CaseStatus;
  readonly durationMs: number;
  /** What the case threw (`failed`, `expected-failure`) or a `stale_expected_failure` `ConformanceError` (`stale`). */
  readonly error?: unknown;
  /** Why the case was skipped or unobserved, or why its failure was expected. */
  readonly reason?: string;
}

/**
 * Runs one case against a set-up implementation, applying capabilities (and what `needs` says of them),
 * expected failures and the timeout.
 */
export async function executeCase<Ctx>(
  testCase: ConformanceCase<Ctx>,
  setup: SuiteSetup<Ctx>,
  expectedToFail: boolean,
  timeoutMs: number,
  needs: Readonly<Record<string, CapabilityNeed>> = {},
): Promise<CaseOutcome> {
  const missing = requiredCapabilities(testCase).filter((capability) => !setup.capabilities?.has(capability));
  if (missing.length > 0) {
    const needOf = (capability: string) => (Object.hasOwn(needs, capability) ? needs[capability] : undefined);
    const lacks = missing.map((capability) => {
      const need = needOf(capability);
      return `"${capability}"${need === undefined ? '' : `: provide ${need.provide}`}`;
    });
    return {
      status: missing.some((capability) => needOf(capability)?.observation === true)
        ? 'unobserved'
        : 'skipped',
      durationMs: 0,
      reason: `the implementation lacks capability ${lacks.join('; and ')}`,
    };
  }
  const started = performance.now();
  let error: unknown;
  let threw = false;
  try {
    const controller = new AbortController();
    await withTimeout(
      () => testCase.run(setup.ctx, { signal: controller.signal }),
      testCase.id,
      timeoutMs,
      controller,
    );
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

/** The capabilities `testCase` requires, as a list. */
export function requiredCapabilities(testCase: {
  readonly requires?: string | readonly string[];
}): readonly string[] {
  const { requires } = testCase;
  return requires === undefined ? [] : typeof requires === 'string' ? [requires] : requires;
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
  controller: AbortController,
): Promise<void> {
  const outcome = await settleWithin(action, timeoutMs);
  if (outcome === 'late') {
    const error = new ConformanceError(
      'case_timeout',
      `case ${caseId} did not finish within ${timeoutMs} ms`,
      {
        retryable: true,
        details: { caseId, timeoutMs },
      },
    );
    controller.abort(error); // what the case started stops with it
    throw error;
  }
  if ('error' in outcome) throw outcome.error;
}

/**
 * What `action` settled with, or `'late'` when it had not settled within `ms`: the one deadline the
 * runner puts on a case and a case puts on a call it times (a call must not hang on a stalled
 * substrate). The timer is cleared either way; the call itself is left to settle on its own.
 */
export async function settleWithin<T>(
  action: () => T | Promise<T>,
  ms: number,
): Promise<{ readonly value: T } | { readonly error: unknown } | 'late'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const settled = Promise.resolve()
    .then(action)
    .then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  try {
    return await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Options shared by `runSuite` and the runner adapters. */
export interface SuiteRunOptions<Ctx> {
  /** Case ids known to fail: they pass when they fail, and fail (as stale) when they pass. */
  readonly expectedFailures?: readonly string[];
  /** Longest time one case may take, in milliseconds (setup excluded). Default 10 000. */
  readonly timeoutMs?: number;
  /** Runs only the cases it accepts; the others are left out of the results. */
  readonly filter?: (testCase: ConformanceCase<Ctx>) => boolean;
  /**
   * Fails the run when a case is `unobserved` (the implementation was not given a capability the
   * suite's `needs` marks as an observation): for a verdict that covers the whole contract. Default
   * `false`: such cases are reported, and the report's verdict says the run was reduced.
   */
  readonly requireFull?: boolean;
}

/** The cases one run executes, decided before the first one starts. */
export interface SuitePlan<Ctx> {
  readonly cases: readonly ConformanceCase<Ctx>[];
  readonly expectedFailures: ReadonlySet<string>;
  /** Ids in `expectedFailures` that no case of the suite has. */
  readonly unknownExpectedFailures: readonly string[];
  readonly timeoutMs: number;
  readonly requireFull: boolean;
}

export const DEFAULT_CASE_TIMEOUT_MS = 10_000;
// setTimeout fires at once for delays above 2^31 - 1 ms.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Checks a suite and the run options, and selects the cases to run. */
export function planSuite<Ctx>(
  suite: ConformanceSuite<Ctx>,
  options: SuiteRunOptions<Ctx> = {},
): SuitePlan<Ctx> {
  const { expectedFailures = [], timeoutMs = DEFAULT_CASE_TIMEOUT_MS, filter, requireFull = false } = options;
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
  if (typeof requireFull !== 'boolean') {
    throw new ConformanceError(
      'invalid_run_option',
      `requireFull must be a boolean, got ${formatValue(requireFull)}`,
      {
        path: 'requireFull',
      },
    );
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
    requireFull,
  };
}

/** The name, message and code of something thrown, kept in reports instead of the value itself. */
export interface ErrorSummary {
  readonly name: string;
  readonly message: string;
  /**
   * The thrown error's `code`, when it is a string: for this package's own errors the
   * `ConformanceErrorCode` (`assertion_failed`, `case_timeout`, `stale_expected_failure` …).
   */
  readonly code?: string;
}

/** The result of one case in a {@link SuiteReport}. */
export interface CaseResult {
  readonly id: string;
  readonly title: string;
  readonly section: string;
  readonly level: ConformanceLevel;
  readonly status: CaseStatus;
  readonly durationMs: number;
  readonly error?: ErrorSummary;
  readonly reason?: string;
}

/** How many cases ended in each status. */
export interface CaseCounts {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** Cases not run because the implementation cannot be observed (see {@link CaseStatus}). */
  readonly unobserved: number;
  readonly expectedFailures: number;
  readonly stale: number;
}

/** The framework-free, JSON-serialisable result of {@link runSuite}. */
export interface SuiteReport {
  readonly suite: string;
  readonly version: string;
  /** What was under test, when the caller named it (see {@link RunSuiteOptions.subject}). */
  readonly subject?: string;
  /** ISO 8601 time the run started. */
  readonly startedAt: string;
  readonly durationMs: number;
  readonly counts: CaseCounts;
  /**
   * `true` when no case failed or went stale and the run itself reported no error — and, when the run
   * had `requireFull`, no case was `unobserved`.
   */
  readonly ok: boolean;
  readonly results: readonly CaseResult[];
  /** Problems of the run rather than of one case: unknown expected-failure ids, a failed setup or dispose. */
  readonly errors: readonly ErrorSummary[];
}

/** Options of {@link runSuite}. */
export interface RunSuiteOptions<Ctx> extends SuiteRunOptions<Ctx> {
  /** Called with each case result as soon as it is known. */
  readonly onResult?: (result: CaseResult) => void;
  /** Names what is under test (e.g. `agentwire, noble backend`); copied into the report. */
  readonly subject?: string;
}

/**
 * Runs a suite without any test framework and reports every case. Cases run one after another; a case
 * whose `requires` capability the implementation does not declare is skipped; a case listed in
 * `expectedFailures` is `expected-failure` when it fails and `stale` (a failure of the run) when it
 * passes.
 *
 * @throws {ConformanceError} `duplicate_case_id`: when the suite declares a case id twice.
 * @throws {ConformanceError} `invalid_run_option`: for a malformed `timeoutMs` or `expectedFailures`.
 * @example
 * ```ts
 * const report = await runSuite(hashingSuite({ blake3Hex }), { expectedFailures: [] });
 * if (!report.ok) console.error(formatReportTable([report]));
 * ```
 */
export async function runSuite<Ctx>(
  suite: ConformanceSuite<Ctx>,
  options: RunSuiteOptions<Ctx> = {},
): Promise<SuiteReport> {
  const plan = planSuite(suite, options);
  const startedAt = new Date();
  const started = performance.now();
  const errors: ErrorSummary[] = [];
  if (plan.unknownExpectedFailures.length > 0) {
    errors.push(summarizeError(unknownExpectedFailureError(suite.name, plan.unknownExpectedFailures)));
  }
  const results: CaseResult[] = [];
  const record = (testCase: ConformanceCase<Ctx>, outcome: CaseOutcome) => {
    const result = toCaseResult(testCase, outcome);
    results.push(result);
    options.onResult?.(result);
  };

  let setup: SuiteSetup<Ctx> | undefined;
  try {
    setup = await suite.setup();
  } catch (cause) {
    const setupError = suiteSetupError(suite.name, cause);
    errors.push(summarizeError(setupError));
    for (const testCase of plan.cases) {
      record(testCase, { status: 'failed', durationMs: 0, error: setupError, reason: 'suite setup failed' });
    }
  }
  if (setup) {
    try {
      for (const testCase of plan.cases) {
        const expected = plan.expectedFailures.has(testCase.id);
        record(testCase, await executeCase(testCase, setup, expected, plan.timeoutMs, suite.needs));
      }
    } finally {
      try {
        await setup.dispose?.();
      } catch (cause) {
        errors.push(summarizeError(cause, 'dispose failed: '));
      }
    }
  }

  const counts = countStatuses(results);
  return {
    suite: suite.name,
    version: suite.version,
    ...(options.subject === undefined ? {} : { subject: options.subject }),
    startedAt: startedAt.toISOString(),
    durationMs: performance.now() - started,
    counts,
    ok:
      counts.failed === 0 &&
      counts.stale === 0 &&
      errors.length === 0 &&
      !(plan.requireFull && counts.unobserved > 0),
    results,
    errors,
  };
}

/** `unobserved_case`: `testCase` observes the implementation, which was not given what it needs. */
function unobservedCaseError<Ctx>(
  testCase: ConformanceCase<Ctx>,
  reason: string | undefined,
): ConformanceError {
  return new ConformanceError(
    'unobserved_case',
    `case ${testCase.id} could not run and a full run is required: ${reason ?? 'the implementation cannot be observed'}`,
    {
      details: {
        caseId: testCase.id,
        ...(testCase.requires === undefined ? {} : { capability: requiredCapabilities(testCase).join(', ') }),
      },
    },
  );
}

/** The name, message and string `code` of a thrown value; non-errors are stringified. */
export function summarizeError(error: unknown, messagePrefix = ''): ErrorSummary {
  if (error instanceof Error) {
    const { code } = error as { readonly code?: unknown };
    return {
      name: error.name,
      message: messagePrefix + error.message,
      ...(typeof code === 'string' ? { code } : {}),
    };
  }
  return { name: 'NonErrorThrown', message: `${messagePrefix}threw ${formatValue(error)}` };
}

function toCaseResult<Ctx>(testCase: ConformanceCase<Ctx>, outcome: CaseOutcome): CaseResult {
  return {
    id: testCase.id,
    title: testCase.title,
    section: testCase.section,
    level: testCase.level,
    status: outcome.status,
    durationMs: outcome.durationMs,
    ...(outcome.status === 'passed' || outcome.status === 'skipped' || outcome.status === 'unobserved'
      ? {}
      : { error: summarizeError(outcome.error) }),
    ...(outcome.reason === undefined ? {} : { reason: outcome.reason }),
  };
}

function countStatuses(results: readonly CaseResult[]): CaseCounts {
  const count = (status: CaseStatus) => results.filter((r) => r.status === status).length;
  return {
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    unobserved: count('unobserved'),
    expectedFailures: count('expected-failure'),
    stale: count('stale'),
  };
}

/** What a runner adapter gives {@link declareSuite}: its grouping, test and (optional) after-all hooks. */
export interface TestDeclarer {
  group(name: string, body: () => void): void;
  /** Declares a test; `skip` marks it skipped (and may throw to stop it, as vitest's does). */
  test(name: string, body: (skip: (reason: string) => void) => Promise<void>): void;
  /** Registers cleanup after the group's last test; without it, cleanup runs when the last case ends. */
  afterAll?: ((body: () => Promise<void>) => void) | undefined;
}

/**
 * Declares one group per suite and one test per case through a runner's own functions. Setup runs once,
 * lazily, in the first test; skipped cases call `skip`, and so do unobserved ones (their reason starts
 * `unobserved:`) unless `requireFull` makes them fail; expected failures are inverted (a failure passes,
 * a pass fails as stale); unknown expected-failure ids become one failing test.
 */
export function declareSuite<Ctx>(
  suite: ConformanceSuite<Ctx>,
  declarer: TestDeclarer,
  options: SuiteRunOptions<Ctx> = {},
): void {
  const plan = planSuite(suite, options);
  declarer.group(`${suite.name} v${suite.version}`, () => {
    let setup: Promise<SuiteSetup<Ctx>> | undefined;
    const setUp = () => {
      setup ??= Promise.resolve()
        .then(() => suite.setup())
        .catch((cause: unknown) => {
          throw suiteSetupError(suite.name, cause);
        });
      return setup;
    };
    let disposed = false;
    const dispose = async () => {
      if (disposed || setup === undefined) return;
      disposed = true;
      const ready = await setup.catch(() => undefined);
      await ready?.dispose?.();
    };

    if (plan.unknownExpectedFailures.length > 0) {
      const error = unknownExpectedFailureError(suite.name, plan.unknownExpectedFailures);
      declarer.test('expectedFailures names only cases of this suite', async () => {
        throw error;
      });
    }
    let remaining = plan.cases.length;
    for (const testCase of plan.cases) {
      declarer.test(`${testCase.id}: ${testCase.title}`, async (skip) => {
        try {
          const expected = plan.expectedFailures.has(testCase.id);
          const outcome = await executeCase(testCase, await setUp(), expected, plan.timeoutMs, suite.needs);
          if (outcome.status === 'skipped') skip(outcome.reason ?? 'skipped');
          else if (outcome.status === 'unobserved') {
            if (plan.requireFull) throw unobservedCaseError(testCase, outcome.reason);
            skip(`unobserved: ${outcome.reason ?? 'the implementation cannot be observed'}`);
          } else if (outcome.status === 'failed' || outcome.status === 'stale') throw outcome.error;
        } finally {
          remaining -= 1;
          if (!declarer.afterAll && remaining === 0) await dispose();
        }
      });
    }
    declarer.afterAll?.(dispose);
  });
}
