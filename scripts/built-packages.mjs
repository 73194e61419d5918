// Bundling against the BUILT packages, for the gates that measure or run what ships (bundle sizes,
// the browser check): esbuild, loaded from where tsup keeps it, and an esbuild plugin that resolves
// `@agentwire/<name>[/<subpath>]` to the `dist/` file its package.json `exports` names.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..');
const packagesDir = join(repoRoot, 'packages');

/** esbuild is not a root dependency: it is the one tsup (a root devDependency) runs on. */
export async function loadEsbuild() {
  const requireFromTsup = createRequire(createRequire(import.meta.url).resolve('tsup'));
  return requireFromTsup('esbuild');
}

/** Every workspace package, by name: its directory and its `exports` map. */
function workspacePackages() {
  const byName = new Map();
  for (const dir of readdirSync(packagesDir)) {
    const file = join(packagesDir, dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    byName.set(pkg.name, { dir: join(packagesDir, dir), exports: pkg.exports ?? {} });
  }
  return byName;
}

/**
 * An esbuild plugin resolving workspace packages to their built files, so what is bundled is what
 * would be published. Fails with "run pnpm build first" when a dist file is missing.
 */
export function builtPackagesPlugin() {
  const packages = workspacePackages();
  return {
    name: 'agentwire-built-packages',
    setup(build) {
      build.onResolve({ filter: /^@agentwire\// }, (args) => {
        const [scope, name, ...rest] = args.path.split('/');
        const pkg = packages.get(`${scope}/${name}`);
        if (!pkg) return { errors: [{ text: `${args.path}: no workspace package ${scope}/${name}` }] };
        const subpath = rest.length ? `./${rest.join('/')}` : '.';
        const target = pkg.exports[subpath];
        const file = typeof target === 'string' ? target : (target?.import ?? target?.default);
        if (!file) return { errors: [{ text: `${args.path}: "${subpath}" is not an exports subpath` }] };
        const path = join(pkg.dir, file);
        if (!existsSync(path)) {
          return {
            errors: [{ text: `${args.path}: ${relative(repoRoot, path)} is missing; run pnpm build first` }],
          };
        }
        return { path };
      });
    },
  };
}
