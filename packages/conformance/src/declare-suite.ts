import { suiteSetupError, unknownExpectedFailureError } from './errors.js';
import { executeCase } from './execute-case.js';
import { planSuite, type SuiteRunOptions } from './plan.js';
import type { ConformanceSuite, SuiteSetup } from './suite.js';

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
