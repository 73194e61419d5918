// knip (`pnpm check:unused`): unused files, exports, types and dependencies across the workspace.
// The public API is what each package's `exports` map names, read through the one convention of
// scripts/package-entries.mjs (plus the sources of `bin` targets); those entry files, the tests,
// the examples, the benchmarks and the scripts are the entries, and an export is unused when
// nothing reachable from them imports it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { packageEntries } from './scripts/package-entries.mjs';

const root = import.meta.dirname;

/** `./dist/cli.js` → `src/cli.ts`: tsup builds every bin from the source of the same name. */
function binSources(packageDir) {
  const { bin } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const targets = typeof bin === 'string' ? [bin] : Object.values(bin ?? {});
  return targets.map((target) => target.replace(/^\.\/dist\/(.+)\.js$/, 'src/$1.ts'));
}

const packageWorkspaces = Object.fromEntries(
  readdirSync(join(root, 'packages')).map((dir) => {
    const packageDir = join(root, 'packages', dir);
    const entries = packageEntries(packageDir).map((e) => relative(packageDir, e.source));
    return [
      `packages/${dir}`,
      {
        // Scripts the tests spawn as processes (`node --import tsx …-process.ts`) are entries too.
        entry: [
          ...entries,
          ...binSources(packageDir),
          '{src,test}/**/*.test.ts',
          '{src,test}/**/test-support/*-process.ts',
          'tsup.config.ts',
        ],
        project: ['{src,test}/**/*.ts'],
        // Loaded at run time with createRequire where Node can load it (hearthnet's native BLAKE3).
        ...(dir === 'hearthnet' ? { ignoreDependencies: ['@napi-rs/blake-hash'] } : {}),
      },
    ];
  }),
);

/** @type {import('knip').KnipConfig} */
export default {
  // An export its own file uses is live code; whether it needs the `export` keyword is left to review.
  ignoreExportsUsedInFile: true,
  workspaces: {
    '.': {
      entry: ['scripts/**/*.mjs', 'vitest.config.ts'],
      project: ['scripts/**/*.mjs'],
      ignoreDependencies: [
        // Run as commands by scripts/check-package.mjs (execFileSync), which knip does not follow.
        'publint',
        '@arethetypeswrong/cli',
        // The browser check bundles the built workspace packages through its own esbuild resolver.
        /^@agentwire\//,
      ],
    },
    ...packageWorkspaces,
    'examples/*': { entry: ['main.ts'], project: ['**/*.ts'] },
    bench: { entry: ['run-all.ts'], project: ['*.ts'] },
    // `pnpm mutation`: the runner, and the one test file Stryker runs through its vitest configuration.
    mutation: { entry: ['run.mjs', 'pair.mutation.test.ts', 'vitest.config.ts'], project: ['*.{ts,mjs}'] },
  },
};
