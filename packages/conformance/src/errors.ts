/**
 * Every condition `@agentwire/conformance` reports or refuses, as `ConformanceError.code` names it. A code
 * is stable: it never changes meaning.
 *
 * A case's failure:
 * - `assertion_failed`: an assertion helper found an implementation's answer is not the expected one
 *   (`details.actual`, `details.expected` when it compared values);
 * - `case_timeout`: a case did not settle within the run's `timeoutMs` (`details.caseId`, `timeoutMs`);
 * - `stale_expected_failure`: a case listed as an expected failure passed: the list should drop it
 *   (`details.caseId`);
 * - `suite_setup_failed`: the suite's `setup` threw, so no case could run (`cause` holds what it threw);
 * - `unobserved_case`: a run with `requireFull` reached a case that observes the implementation's effect,
 *   and the implementation was not given the capability it needs (`details.caseId`, `details.capability`).
 *
 * A run or usage problem:
 * - `unknown_expected_failure`: `expectedFailures` names case ids the suite does not have
 *   (`details.caseIds`);
 * - `duplicate_case_id`: a suite declares the same case id twice (`details.caseId`);
 * - `invalid_fixture`: a fixture file or value does not have the documented shape; `path` says where
 *   (`hashing.json cases[3].input`);
 * - `invalid_run_option`: `runSuite`, `registerSuite` or a suite factory was given an option outside its
 *   documented range;
 * - `invalid_subjects`: a subjects description (the default export of a `--subjects` module) does not
 *   have the documented shape;
 * - `cli_usage`: the CLI was given arguments it does not understand;
 * - `fixtures_not_found`: the fixture files of this package could not be found next to its code;
 * - `invalid_relay_edge_live_options`: `relayEdgeLiveSuite` was given options it cannot use;
 * - `invalid_relay_live_options`: `relayConnectorSuite` was given options it cannot use;
 * - `invalid_platform_adapter_options`: `platformAdapterSuite` was given options (or `create` returned a
 *   subject) it cannot use;
 * - `declared_length_probe_failed`: a `declaredLengthProbe` got no status (the connection failed or no
 *   answer came in time);
 * - `live_connection_failed`: a live connector refused the WebSocket upgrade with a plain HTTP answer
 *   (`details.status`), or the dial failed.
 */
export type ConformanceErrorCode =
  | 'assertion_failed'
  | 'case_timeout'
  | 'stale_expected_failure'
  | 'suite_setup_failed'
  | 'unobserved_case'
  | 'unknown_expected_failure'
  | 'duplicate_case_id'
  | 'invalid_fixture'
  | 'invalid_run_option'
  | 'invalid_subjects'
  | 'cli_usage'
  | 'fixtures_not_found'
  | 'invalid_relay_edge_live_options'
  | 'invalid_relay_live_options'
  | 'invalid_platform_adapter_options'
  | 'declared_length_probe_failed'
  | 'live_connection_failed';

/** The facts particular to a code; each field says which codes set it. */
export interface ConformanceErrorDetails {
  /** `assertion_failed`: what the implementation produced, when the assertion compared values. */
  readonly actual?: unknown;
  /** `assertion_failed`: what the spec requires, when the assertion compared values. */
  readonly expected?: unknown;
  /** `case_timeout`, `stale_expected_failure`, `duplicate_case_id`, `unobserved_case`: the case id. */
  readonly caseId?: string;
  /** `case_timeout`: the time limit the case ran past, in milliseconds. */
  readonly timeoutMs?: number;
  /** `unknown_expected_failure`: the listed ids the suite does not have. */
  readonly caseIds?: readonly string[];
  /** `unknown_expected_failure`, `duplicate_case_id`, `suite_setup_failed`: the suite's name. */
  readonly suite?: string;
  /** `unobserved_case`: the observation capability the implementation was not given. */
  readonly capability?: string;
  /** `live_connection_failed`: the HTTP status the connector answered the upgrade with, when it answered one. */
  readonly status?: number;
}

/** The optional parts of a {@link ConformanceError}. */
export interface ConformanceErrorOptions {
  /** Where the problem is: the fixture location, option or argument; `''` (the default) for none. */
  readonly path?: string;
  /** Whether the same call may succeed when made again unchanged; `false` by default. */
  readonly retryable?: boolean;
  readonly details?: ConformanceErrorDetails;
  /** The underlying error. */
  readonly cause?: unknown;
}

/**
 * The error `@agentwire/conformance` throws and reports, for a failed case as for a setup or usage
 * problem: switch on {@link ConformanceError.code}. A run treats every value a case throws alike (the case
 * failed), so a failed assertion needs no class of its own; reports carry the code (`ErrorSummary.code`).
 *
 * @example
 * throw new ConformanceError('invalid_run_option', 'timeoutMs must be a positive integer', { path: 'timeoutMs' });
 */
export class ConformanceError extends Error {
  override readonly name = 'ConformanceError';
  /** A stable, machine-readable identifier of the condition. */
  readonly code: ConformanceErrorCode;
  /** Where the problem is; `''` when nowhere in particular. */
  readonly path: string;
  /** Whether the same call may succeed when made again unchanged. */
  readonly retryable: boolean;
  /** The facts particular to {@link ConformanceError.code}. */
  readonly details: ConformanceErrorDetails;

  constructor(code: ConformanceErrorCode, message: string, options: ConformanceErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.path = options.path ?? '';
    this.retryable = options.retryable ?? false;
    this.details = options.details ?? {};
  }
}

/** `invalid_fixture`: what is wrong at `location` (`hashing.json cases[3].input`), which starts the message. */
export function invalidFixtureError(location: string, message: string): ConformanceError {
  return new ConformanceError('invalid_fixture', `${location}: ${message}`, { path: location });
}

/** Whether `error` is a {@link ConformanceError} with `code`. */
export function isConformanceError(error: unknown, code: ConformanceErrorCode): error is ConformanceError {
  return error instanceof ConformanceError && error.code === code;
}

/** `suite_setup_failed`: the `setup` of suite `suite` threw `cause`. */
export function suiteSetupError(suite: string, cause: unknown): ConformanceError {
  return new ConformanceError(
    'suite_setup_failed',
    `setup of suite ${suite} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    { details: { suite }, cause },
  );
}

/** `unknown_expected_failure`: `expectedFailures` names `caseIds` that suite `suite` does not have. */
export function unknownExpectedFailureError(suite: string, caseIds: readonly string[]): ConformanceError {
  return new ConformanceError(
    'unknown_expected_failure',
    `expectedFailures names cases that suite ${suite} does not have: ${caseIds.join(', ')}`,
    { path: 'expectedFailures', details: { suite, caseIds } },
  );
}
