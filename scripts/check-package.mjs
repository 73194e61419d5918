// Package-quality gate for the package in the current directory: publint --strict, then
// @arethetypeswrong/cli with the ESM-only profile. A package that has no code entries yet
// (a skeleton) is checked by publint only, and the script says so. Last, no built file may name the
// private `@agentwire/internal`: tsup bundles it, so a published package never imports it. And what npm
// shows: `repository` (with `directory`), `homepage` and `bugs`, a README whose links work on npm
// (absolute, or anchors within it) and that says at its top how the package loads (ESM only, Node).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isPublished, packageEntries, packageName } from './package-entries.mjs';

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

if (isPublished(dir)) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const problems = [];
  const repositoryDir = relative(join(dir, '..', '..'), dir);
  if (
    pkg.repository?.directory !== repositoryDir ||
    !/^git\+https:\/\/.+\.git$/.test(pkg.repository?.url ?? '')
  ) {
    problems.push(
      `package.json needs "repository": { "type": "git", "url": "git+https://….git", "directory": "${repositoryDir}" }`,
    );
  }
  const web = pkg.repository?.url?.replace(/^git\+/, '').replace(/\.git$/, '');
  if (pkg.homepage !== `${web}/tree/main/${repositoryDir}#readme`)
    problems.push('package.json needs "homepage": its README in the repository');
  if (pkg.bugs?.url !== `${web}/issues`)
    problems.push('package.json needs "bugs": { "url": the repository\'s issues }');
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  for (const [, target] of readme.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (!/^(https:\/\/|#)/.test(target))
      problems.push(`README.md links to ${target}, which the tarball does not resolve on npm`);
  }
  const top = readme.split('\n').slice(0, 12).join('\n');
  if (!/ESM only/.test(top) || !/Node ≥ 20\.19/.test(top) || !/"type": "module"/.test(top)) {
    problems.push('README.md must say near its top: ESM only, Node ≥ 20.19, "type": "module"');
  }
  if (problems.length > 0) {
    console.error(`${name}:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
}
