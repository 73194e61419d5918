/**
 * Registers conformance suites with `node:test`. The caller passes `node:test`'s own functions, so this
 * module imports nothing from Node and stays runtime-neutral.
 *
 * @example
 * ```ts
 * import { after, describe, it } from 'node:test';
 * import { hashingSuite } from '@agentwire/conformance';
 * import { registerSuite } from '@agentwire/conformance/node-test';
 * registerSuite(hashingSuite({ blake3Hex }), { describe, it, after });
 * ```
 * @packageDocumentation
 */

import type { SuiteRunOptions } from '../run-suite.js';
import { declareSuite } from '../run-suite.js';
import type { ConformanceSuite } from '../suite.js';

/** The slice of `node:test`'s `TestContext` the adapter uses. */
interface NodeTestContext {
  skip(message?: string): void;
}

/** `node:test`'s `describe` and `it`, and optionally `after` (the suite's `dispose` runs there). */
export interface NodeTestFunctions {
  readonly describe: (name: string, body: () => void) => unknown;
  readonly it: (name: string, body: (context: NodeTestContext) => Promise<void>) => unknown;
  readonly after?: (body: () => Promise<void>) => unknown;
}

/**
 * Declares one `describe` for the suite and one `it` per case. A case needing a capability the
 * implementation lacks is marked with `t.skip`; a case in `expectedFailures` passes when it fails and
 * fails when it passes. Without `after`, the suite is disposed when its last case ends.
 *
 * @throws {ConformanceError} `duplicate_case_id`: when the suite declares a case id twice.
 */
export function registerSuite<Ctx>(
  suite: ConformanceSuite<Ctx>,
  nodeTest: NodeTestFunctions,
  options?: SuiteRunOptions<Ctx>,
): void {
  const { describe, it, after } = nodeTest;
  declareSuite(
    suite,
    {
      group: (name, body) => void describe(name, body),
      test: (name, body) => void it(name, (context) => body((reason) => context.skip(reason))),
      afterAll: after && ((body) => void after(body)),
    },
    options,
  );
}

export type { SuiteRunOptions } from '../run-suite.js';
