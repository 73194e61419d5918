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
  /** A capability the implementation must declare for the case to run; without it the case is skipped. */
  readonly requires?: string;
  /** The suite version that added the case. */
  readonly since: string;
  /**
   * Runs the check; throws when the implementation does not conform (any value: the report keeps its
   * `name`, `message` and `code`).
   */
  run(ctx: Ctx): void | Promise<void>;
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
  /** Called once per run, before the first case. */
  setup(): SuiteSetup<Ctx> | Promise<SuiteSetup<Ctx>>;
}
