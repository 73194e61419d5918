/**
 * Registers conformance suites with vitest. The caller passes vitest's own functions, so this module
 * imports nothing from vitest and works with any vitest version that has these signatures.
 *
 * @example
 * ```ts
 * import { afterAll, describe, it } from 'vitest';
 * import { hashingSuite } from '@agentwire/conformance';
 * import { registerSuite } from '@agentwire/conformance/vitest';
 * registerSuite(hashingSuite({ blake3Hex }), { describe, it, afterAll });
 * ```
 * @packageDocumentation
 */

import type { SuiteRunOptions } from '../run-suite.js';
import { declareSuite } from '../run-suite.js';
import type { ConformanceSuite } from '../suite.js';

/** The slice of vitest's test context the adapter uses. */
interface VitestTestContext {
  skip(note?: string): void;
}

/** vitest's `describe` and `it`, and optionally `afterAll` (the suite's `dispose` runs there). */
export interface VitestFunctions {
  readonly describe: (name: string, body: () => void) => unknown;
  readonly it: (name: string, body: (context: VitestTestContext) => Promise<void>) => unknown;
  readonly afterAll?: (body: () => Promise<void>) => unknown;
}

/**
 * Declares one `describe` for the suite and one `it` per case. A case needing a capability the
 * implementation lacks is skipped with `context.skip`; a case in `expectedFailures` passes when it fails
 * and fails when it passes. Without `afterAll`, the suite is disposed when its last case ends.
 *
 * @throws {ConformanceError} `duplicate_case_id`: when the suite declares a case id twice.
 */
export function registerSuite<Ctx>(
  suite: ConformanceSuite<Ctx>,
  vitest: VitestFunctions,
  options?: SuiteRunOptions<Ctx>,
): void {
  const { describe, it, afterAll } = vitest;
  declareSuite(
    suite,
    {
      group: (name, body) => void describe(name, body),
      test: (name, body) => void it(name, (context) => body((reason) => context.skip(reason))),
      afterAll: afterAll && ((body) => void afterAll(body)),
    },
    options,
  );
}

export type { SuiteRunOptions } from '../run-suite.js';
