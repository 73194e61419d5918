/** Thrown by the assertion helpers when an implementation's answer is not the expected one. */
export class ConformanceAssertionError extends Error {
  override readonly name = 'ConformanceAssertionError';
  readonly code = 'assertion_failed';
  /** What the implementation produced, when the assertion compared values. */
  readonly actual: unknown;
  /** What the spec requires, when the assertion compared values. */
  readonly expected: unknown;

  constructor(message: string, details: { actual?: unknown; expected?: unknown; cause?: unknown } = {}) {
    super(message, 'cause' in details ? { cause: details.cause } : undefined);
    this.actual = details.actual;
    this.expected = details.expected;
  }
}

/** A case did not settle within the run's `timeoutMs`. */
export class CaseTimeoutError extends Error {
  override readonly name = 'CaseTimeoutError';
  readonly code = 'case_timeout';
  readonly timeoutMs: number;

  constructor(caseId: string, timeoutMs: number) {
    super(`case ${caseId} did not finish within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** A case listed as an expected failure passed: the list is out of date and should drop it. */
export class StaleExpectedFailureError extends Error {
  override readonly name = 'StaleExpectedFailureError';
  readonly code = 'stale_expected_failure';

  constructor(caseId: string) {
    super(`case ${caseId} is listed in expectedFailures but passed; remove it from the list`);
  }
}

/** `expectedFailures` names case ids that the suite does not have (a typo, or a case that was renamed). */
export class UnknownExpectedFailureError extends Error {
  override readonly name = 'UnknownExpectedFailureError';
  readonly code = 'unknown_expected_failure';
  readonly caseIds: readonly string[];

  constructor(suiteName: string, caseIds: readonly string[]) {
    super(`expectedFailures names cases that suite ${suiteName} does not have: ${caseIds.join(', ')}`);
    this.caseIds = caseIds;
  }
}

/** A suite declares the same case id twice. */
export class DuplicateCaseIdError extends Error {
  override readonly name = 'DuplicateCaseIdError';
  readonly code = 'duplicate_case_id';

  constructor(suiteName: string, caseId: string) {
    super(`suite ${suiteName} declares case ${caseId} more than once`);
  }
}

/** The suite's `setup` threw, so no case could run. */
export class SuiteSetupError extends Error {
  override readonly name = 'SuiteSetupError';
  readonly code = 'suite_setup_failed';

  constructor(suiteName: string, cause: unknown) {
    super(`setup of suite ${suiteName} failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/** A fixture file or value does not have the documented shape (see `fixtures/README.md`). */
export class InvalidFixtureError extends Error {
  override readonly name = 'InvalidFixtureError';
  readonly code = 'invalid_fixture';
  /** Where in the fixture the problem is, e.g. `hashing.json cases[3].input`. */
  readonly location: string;

  constructor(location: string, message: string) {
    super(`${location}: ${message}`);
    this.location = location;
  }
}

/** `runSuite` or `registerSuite` was given an option outside its documented range. */
export class InvalidRunOptionError extends Error {
  override readonly name = 'InvalidRunOptionError';
  readonly code = 'invalid_run_option';
}
