// Package-quality gate for the package in the current directory: publint --strict, then
// @arethetypeswrong/cli with the ESM-only profile. A package that has no code entries yet
// (a skeleton) is checked by publint only, and the script says so.
import { execFileSync } from 'node:child_process';
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
