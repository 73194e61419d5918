import { afterAll, describe, expect, it } from 'vitest';
import { assertEqual } from '../assert.js';
import type { ConformanceCase, ConformanceSuite } from '../suite.js';
import { registerSuite } from './index.js';

function demoCase(id: string, run: () => void, requires?: string): ConformanceCase<null> {
  return {
    id,
    title: `title of ${id}`,
    section: '§1',
    level: 'required',
    since: '1.0.0',
    run,
    ...(requires ? { requires } : {}),
  };
}

let disposed = 0;
const suite: ConformanceSuite<null> = {
  name: 'vitest-demo',
  version: '1.0.0',
  description: 'runs under the real vitest describe/it',
  cases: [
    demoCase('demo.pass', () => assertEqual([1, 2], [1, 2])),
    demoCase('demo.needs-missing-capability', () => assertEqual(1, 2), 'missing'),
    demoCase('demo.known-gap', () => assertEqual('a', 'b')),
  ],
  setup: () => ({
    ctx: null,
    dispose: () => {
      disposed += 1;
    },
  }),
};

// Real vitest functions: the first case passes, the second is reported as skipped (it would fail if it
// ran), the third fails as expected and so passes.
registerSuite(suite, { describe, it, afterAll }, { expectedFailures: ['demo.known-gap'] });

describe('registerSuite for vitest', () => {
  it('disposed the suite once, in the afterAll of its describe', () => {
    expect(disposed).toBe(1);
  });

  it('declares one describe named after the suite and one it per case', () => {
    const declared: string[] = [];
    registerSuite(suite, {
      describe: (name, body) => {
        declared.push(`describe ${name}`);
        body();
      },
      it: (name) => void declared.push(`it ${name}`),
    });
    expect(declared).toEqual([
      'describe vitest-demo v1.0.0',
      'it demo.pass: title of demo.pass',
      'it demo.needs-missing-capability: title of demo.needs-missing-capability',
      'it demo.known-gap: title of demo.known-gap',
    ]);
  });
});
