import { join } from 'node:path';
import { defineConfig } from 'tsup';
import { packageEntries } from '../../scripts/package-entries.mjs';
import { libraryConfig } from '../../scripts/tsup-config.mjs';

const packageDir = import.meta.dirname;
// The exports entries plus the `agentwire-conformance` bin; src/cli.ts starts with a shebang, which
// esbuild keeps at the top of dist/cli.js.
const entry = {
  ...Object.fromEntries(packageEntries(packageDir).map((e) => [e.name, e.source])),
  cli: join(packageDir, 'src/cli.ts'),
};

export default defineConfig(libraryConfig(packageDir, { entry }));
