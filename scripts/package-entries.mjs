// One convention maps a package's `exports` subpaths to its source files, so the build (tsup),
// the tests (vitest aliases) and the dependency-rule check all agree on what an entry is:
//   "."        -> src/index.ts
//   "./x-y"    -> src/x-y/index.ts, or src/x-y.ts when there is no folder
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** @returns {{ subpath: string, name: string, source: string }[]} entries with absolute source paths */
export function packageEntries(packageDir) {
  const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const entries = [];
  for (const subpath of Object.keys(pkg.exports ?? {})) {
    // Plain-string targets (./package.json, ./fixtures/*) are files shipped as they are, not code entries.
    if (typeof pkg.exports[subpath] === 'string') continue;
    const name = subpath === '.' ? 'index' : subpath.slice(2);
    const candidates = subpath === '.' ? ['src/index.ts'] : [`src/${name}/index.ts`, `src/${name}.ts`];
    const source = candidates.map((c) => join(packageDir, c)).find((c) => existsSync(c));
    if (!source)
      throw new Error(`${pkg.name}: no source for export "${subpath}" (tried ${candidates.join(', ')})`);
    entries.push({ subpath, name, source });
  }
  return entries;
}

export function packageName(packageDir) {
  return JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).name;
}

/** Whether the package is published: `private` packages (`@agentwire/internal`) are bundled into others instead. */
export function isPublished(packageDir) {
  return JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).private !== true;
}
