/** `required` cases define conformance; `recommended` cases check advice the spec gives. */
export type ConformanceLevel = 'required' | 'recommended';

/** One check of a conformance suite: data plus a `run` that throws when the implementation is wrong. */
export interface ConformanceCase<Ctx> {
  /** Stable dotted id, e.g. `'hearthnet.canonical-json.key-order-astral'`; never reused for another check. */
  readonly id: string;
  /** One line saying what is checked. */
  readonly title: string;
  /** The spec section the case proves, e.g. `'HearthNet §1.2'`. */
  readonly section: string;
  readonly level: ConformanceLevel;
  /**
   * The capability (or every capability of a list) the implementation must declare for the case to run;
   * without one the case is skipped, or `unobserved` when that capability is an observation.
   */
  readonly requires?: string | readonly string[];
  /** The suite version that added the case. */
  readonly since: string;
  /**
   * Runs the check; throws when the implementation does not conform (any value: the report keeps its
   * `name`, `message` and `code`). `run.signal` is aborted when the case runs past its timeout: pass it
   * to what the case starts (requests, streams), so that a timed-out case leaves nothing open.
   */
  run(ctx: Ctx, run: CaseRun): void | Promise<void>;
}

/** What the runner gives one run of a case. */
export interface CaseRun {
  /** Aborted (with a `ConformanceError` `case_timeout`) when the case runs past its timeout. */
  readonly signal: AbortSignal;
}

/** How an implementer provides a capability that cases `require` (see {@link ConformanceSuite.needs}). */
export interface CapabilityNeed {
  /**
   * What to give the suite, said to the implementer: e.g. `'an observe() in what create returns, listing
   * what the substrate received'`.
   */
  readonly provide: string;
  /**
   * `true` when the cases that require it observe the implementation's effect (what a substrate
   * received, what a platform was sent): a run without it is reduced, and `requireFull` fails it.
   */
  readonly observation?: boolean;
}

/** What a suite's `setup` provides for one run: the context every case receives, and how to dispose of it. */
export interface SuiteSetup<Ctx> {
  readonly ctx: Ctx;
  /** Capabilities the implementation declares; cases that require another one are skipped. */
  readonly capabilities?: ReadonlySet<string>;
  /** Called once after the last case. */
  readonly dispose?: () => void | Promise<void>;
}

/** A conformance suite: an ordered list of cases and the setup they share. No test framework involved. */
export interface ConformanceSuite<Ctx> {
  /** Stable name, e.g. `'hearthnet.canonical-json'`. */
  readonly name: string;
  /** Suite version; new `required` cases only arrive in a new major version. */
  readonly version: string;
  readonly description: string;
  readonly cases: readonly ConformanceCase<Ctx>[];
  /**
   * What the implementer provides to get each capability a case `requires`, by capability; a case
   * skipped for lacking one says so. A capability marked `observation` is part of the contract test:
   * without it the run is reduced, its cases are reported `unobserved` (not `skipped`), and the report's
   * verdict says how many did not run.
   */
  readonly needs?: Readonly<Record<string, CapabilityNeed>>;
  /** Called once per run, before the first case. */
  setup(): SuiteSetup<Ctx> | Promise<SuiteSetup<Ctx>>;
}
