// Package-quality gate for the package in the current directory: publint --strict, then
// @arethetypeswrong/cli with the ESM-only profile. A package that has no code entries yet
// (a skeleton) is checked by publint only, and the script says so. Last, no built file may name the
// private `@agentwire/internal`: tsup bundles it, so a published package never imports it.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageEntries, packageName } from './package-entries.mjs';

const dir = process.cwd();
const name = packageName(dir);
const run = (cmd, args) => execFileSync(cmd, args, { cwd: dir, stdio: 'inherit' });

run('publint', ['--strict']);
if (packageEntries(dir).length === 0) {
  console.log(`${name}: attw skipped — no code entry points yet (skeleton package)`);
} else {
  run('attw', ['--pack', '.', '--profile', 'esm-only', '--format', 'table-flipped']);
}

const dist = join(dir, 'dist');
const leaks = existsSync(dist)
  ? readdirSync(dist).filter(
      (f) =>
        /\.(js|d\.ts)$/.test(f) &&
        /['"]@agentwire\/internal(\/[^'"]*)?['"]/.test(readFileSync(join(dist, f), 'utf8')),
    )
  : [];
if (leaks.length > 0) {
  console.error(
    `${name}: dist/${leaks.join(', dist/')} import @agentwire/internal, which is never published`,
  );
  process.exit(1);
}
