// vitest for `pnpm mutation` only: the root configuration's source aliases and fixture loader (so the
// suites run against the package sources Stryker mutates), and the one test file of this folder.
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import root from '../vitest.config.ts';

// Every project of the root configuration resolves the workspace packages the same way.
const [project] = (root.test?.projects ?? []) as ViteUserConfig[];
if (project === undefined) throw new Error('the root vitest configuration has no projects');

export default defineConfig({
  ...(project.resolve === undefined ? {} : { resolve: project.resolve }),
  ...(project.plugins === undefined ? {} : { plugins: project.plugins }),
  test: {
    root: import.meta.dirname,
    include: ['pair.mutation.test.ts'],
    testTimeout: 20_000,
  },
});
