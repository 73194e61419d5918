// Shared tsup settings: ESM only, .d.ts, one output file per `exports` subpath. No source maps: the
// tarballs ship no sources for them to point at, and the code is not minified.
import { packageEntries } from './package-entries.mjs';

export function libraryConfig(packageDir, overrides = {}) {
  const entry = Object.fromEntries(packageEntries(packageDir).map((e) => [e.name, e.source]));
  return {
    entry,
    format: ['esm'],
    // `@agentwire/internal` is private: its code and its types are bundled into each package that uses
    // it, so nothing published ever imports it (scripts/check-package.mjs checks the output).
    noExternal: [/^@agentwire\/internal(\/|$)/],
    dts: { resolve: [/^@agentwire\/internal(\/|$)/] },
    sourcemap: false,
    clean: true,
    target: 'node20',
    // Neutral output: a Node builtin is only ever reached from a Node-only subpath, kept external.
    platform: 'neutral',
    external: [/^node:/],
    splitting: true,
    treeshake: true,
    outDir: 'dist',
    // Keep `node:` specifiers as written: Node-only subpaths must say so in their output too.
    removeNodeProtocol: false,
    ...overrides,
  };
}
