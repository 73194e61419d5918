// Enforces the dependency rules of ARCHITECTURE.md on the sources of every package:
// - relay, agent-connector and hearthnet never import each other;
// - the contract packages never import redis or sqlite;
// - nothing imports @agentwire/conformance except tests and examples;
// - a package imports another @agentwire package only through its `exports` subpaths and only
//   when it declares it in package.json;
// - root entries (and everything they reach inside the package) import no node:* module,
//   no Node builtin, no `ws` and no native module (nor `@agentwire/internal/node`);
// - every package may use the private `@agentwire/internal` (declared as a devDependency, so tsup
//   bundles it); it imports no other @agentwire package.
// - hearthnet's wire/ never imports its compat/: reference dialects are handed to the wire as
//   strategies (the `wire` option), so the contract wire stays free of reference emulation.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { packageEntries } from './package-entries.mjs';

const root = resolve(import.meta.dirname, '..');
const packagesDir = join(root, 'packages');
const allowed = {
  internal: [],
  relay: ['internal'],
  'agent-connector': ['internal'],
  hearthnet: ['internal'],
  conformance: ['internal', 'relay', 'agent-connector', 'hearthnet'],
  redis: ['internal', 'relay', 'agent-connector', 'hearthnet'],
  sqlite: ['internal', 'relay', 'agent-connector', 'hearthnet'],
};
const nonNeutral = new Set(['ws', 'better-sqlite3', 'ioredis', 'redis', ...builtinModules]);
const errors = [];

const importRe =
  /(?:^|[\s;])(?:import|export)\s[^'"`]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

// Comments (JSDoc @example blocks import packages freely) are not imports.
const stripComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

// `import type` / `export type` statements are erased when compiled (verbatimModuleSyntax): they tie
// packages together, but run nothing.
const typeOnly = /^[\s;]*(?:import|export)\s+type\s/;

/** The modules `file` imports; with `runtimeOnly`, without its type-only imports. */
function specifiers(file, { runtimeOnly = false } = {}) {
  const text = stripComments(readFileSync(file, 'utf8'));
  const out = [];
  for (const m of text.matchAll(importRe)) {
    if (runtimeOnly && typeOnly.test(m[0])) continue;
    out.push(m[1] ?? m[2] ?? m[3]);
  }
  return out;
}

function sourceFiles(dir) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir)) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

const isTestFile = (f) => /\.test\.ts$/.test(f);

for (const dir of readdirSync(packagesDir)) {
  const pkgDir = join(packagesDir, dir);
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const declared = new Set(
    Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.devDependencies }),
  );
  for (const file of sourceFiles(join(pkgDir, 'src'))) {
    const rel = relative(root, file);
    for (const spec of specifiers(file)) {
      if (
        rel.startsWith('packages/hearthnet/src/wire/') &&
        spec.startsWith('.') &&
        relative(root, resolve(dirname(file), spec)).startsWith('packages/hearthnet/src/compat/')
      )
        errors.push(
          `${rel}: hearthnet wire/ may not import compat/ (${spec}); pass a dialect as the wire option`,
        );
      if (!spec.startsWith('@agentwire/')) continue;
      const [, target, ...rest] = spec.split('/');
      if (target === dir)
        errors.push(`${rel}: imports its own package by name (${spec}); use a relative import`);
      if (target === 'conformance' && !isTestFile(file))
        errors.push(`${rel}: only tests and examples may import @agentwire/conformance`);
      else if (!isTestFile(file) && !(allowed[dir] ?? []).includes(target) && target !== dir)
        errors.push(`${rel}: @agentwire/${dir} may not import ${spec} (ARCHITECTURE.md dependency rules)`);
      if (!declared.has(`@agentwire/${target}`) && target !== dir)
        errors.push(`${rel}: imports ${spec} but package.json does not declare @agentwire/${target}`);
      if (
        target === 'internal' &&
        dir !== 'internal' &&
        !(`@agentwire/internal` in (pkg.devDependencies ?? {}))
      )
        errors.push(
          `${rel}: @agentwire/internal must be a devDependency (tsup bundles it; it is never published)`,
        );
      const targetPkgFile = join(packagesDir, target, 'package.json');
      if (existsSync(targetPkgFile)) {
        const targetPkg = JSON.parse(readFileSync(targetPkgFile, 'utf8'));
        const subpath = rest.length ? `./${rest.join('/')}` : '.';
        const exported = Object.keys(targetPkg.exports ?? {}).some((k) =>
          k.includes('*') ? subpath.startsWith(k.slice(0, k.indexOf('*'))) : k === subpath,
        );
        if (!exported)
          errors.push(`${rel}: deep import ${spec} is not an exports subpath of @agentwire/${target}`);
      }
    }
  }
  // Root entry neutrality: walk the relative import graph from src/index.ts.
  const rootEntry = packageEntries(pkgDir).find((e) => e.subpath === '.');
  if (!rootEntry) continue;
  const seen = new Set();
  const stack = [rootEntry.source];
  while (stack.length) {
    const file = stack.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const spec of specifiers(file, { runtimeOnly: true })) {
      if (spec.startsWith('.')) {
        const base = resolve(dirname(file), spec).replace(/\.js$/, '');
        const next = [`${base}.ts`, join(base, 'index.ts')].find((c) => existsSync(c));
        if (next) stack.push(next);
      } else if (
        spec.startsWith('node:') ||
        spec === '@agentwire/internal/node' ||
        nonNeutral.has(spec) ||
        nonNeutral.has(spec.split('/')[0])
      ) {
        errors.push(
          `${relative(root, file)}: reachable from the root entry of @agentwire/${dir} but imports "${spec}" (root entries must be runtime-neutral)`,
        );
      }
    }
  }
}

if (errors.length) {
  console.error(`dependency rules: ${errors.length} violation(s)`);
  for (const e of errors) console.error(`  ${e}`);
  process.exit(1);
}
console.log('dependency rules: ok');
