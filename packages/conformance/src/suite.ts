import { suiteSetupError, unknownExpectedFailureError } from './errors.js';
import { executeCase, planSuite, type SuiteRunOptions } from './run-suite.js';

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
 * lazily, in the first test; skipped cases call `skip`; expected failures are inverted (a failure passes,
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
          const outcome = await executeCase(testCase, await setUp(), expected, plan.timeoutMs);
          if (outcome.status === 'skipped') skip(outcome.reason ?? 'skipped');
          else if (outcome.status === 'failed' || outcome.status === 'stale') throw outcome.error;
        } finally {
          remaining -= 1;
          if (!declarer.afterAll && remaining === 0) await dispose();
        }
      });
    }
    declarer.afterAll?.(dispose);
  });
}
