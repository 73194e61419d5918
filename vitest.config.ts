import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { packageEntries, packageName } from './scripts/package-entries.mjs';

// Tests run against the TypeScript sources: every workspace package's export subpath is aliased
// to its source file, so `pnpm test:unit` needs no build and a change is seen at once.
const packagesDir = join(import.meta.dirname, 'packages');
const packageDirs = readdirSync(packagesDir).map((d) => join(packagesDir, d));

const alias = packageDirs.flatMap((dir) => {
  const name = packageName(dir);
  return packageEntries(dir).map((e) => ({
    find: new RegExp(
      `^${(e.subpath === '.' ? name : `${name}/${e.subpath.slice(2)}`).replace(/[/.-]/g, '\\$&')}$`,
    ),
    replacement: e.source,
  }));
});

// Fixture files are loaded with JavaScript's JSON.parse: Vite's own JSON loader refuses the lone
// UTF-16 surrogates (`"\ud800"`) that the canonical-JSON and signature fixtures must carry. The id
// is renamed so that Vite's JSON plugin never sees the file.
const FIXTURE_ID = '\0agentwire-fixture:';
const fixtureJson = {
  name: 'agentwire-fixture-json',
  enforce: 'pre' as const,
  resolveId(source: string, importer: string | undefined) {
    if (importer === undefined || !source.startsWith('.') || !/\/fixtures\/.+\.json$/.test(source))
      return null;
    return `${FIXTURE_ID}${resolve(dirname(importer), source)}.js`;
  },
  load(id: string) {
    if (!id.startsWith(FIXTURE_ID)) return null;
    const file = id.slice(FIXTURE_ID.length, -'.js'.length);
    return `export default JSON.parse(${JSON.stringify(readFileSync(file, 'utf8'))});`;
  },
};

export default defineConfig({
  test: {
    projects: packageDirs.map((dir) => ({
      resolve: { alias },
      plugins: [fixtureJson],
      test: {
        name: packageName(dir),
        root: dir,
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        testTimeout: 20_000,
      },
    })),
  },
});
