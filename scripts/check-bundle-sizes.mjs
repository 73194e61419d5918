// Bundle-size gate for the runtime-neutral entries, run after `pnpm build`: each probe of
// scripts/bundle-ceilings.json is bundled from the BUILT packages by esbuild (platform browser, ESM,
// minified, tree-shaken), gzipped with node:zlib (level 9) and compared with its ceiling. Prints a
// table; fails when a probe without a waiver is above its ceiling, naming the inputs that weigh most.
// Every package with a root entry must have a "(root entry)" probe, so a new package cannot slip by.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { builtPackagesPlugin, loadEsbuild, repoRoot } from './built-packages.mjs';
import { isPublished, packageEntries, packageName } from './package-entries.mjs';

const ceilingsFile = join(repoRoot, 'scripts', 'bundle-ceilings.json');
const { probes } = JSON.parse(readFileSync(ceilingsFile, 'utf8'));
const esbuild = await loadEsbuild();
const errors = [];

for (const dir of readdirSync(join(repoRoot, 'packages'))) {
  const pkgDir = join(repoRoot, 'packages', dir);
  if (!isPublished(pkgDir) || !packageEntries(pkgDir).some((e) => e.subpath === '.')) continue;
  const name = `${packageName(pkgDir)} (root entry)`;
  if (!probes.some((p) => p.name === name))
    errors.push(
      `no probe "${name}" in ${relative(repoRoot, ceilingsFile)}: every root entry needs a ceiling`,
    );
}

/** Bundles one probe; returns its minified and gzipped sizes and the inputs that weigh most. */
async function measure(probe) {
  const result = await esbuild.build({
    stdin: { contents: probe.code, resolveDir: repoRoot, sourcefile: 'probe.js', loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    treeShaking: true,
    metafile: true,
    logLevel: 'silent',
    plugins: [builtPackagesPlugin()],
  });
  const bytes = result.outputFiles[0].contents;
  const [output] = Object.values(result.metafile.outputs);
  const heaviest = Object.entries(output.inputs)
    .map(([input, { bytesInOutput }]) => ({ input, bytesInOutput }))
    .sort((a, b) => b.bytesInOutput - a.bytesInOutput)
    .slice(0, 8);
  return { minified: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, heaviest };
}

const results = await Promise.all(
  probes.map(async (probe) => {
    try {
      return { probe, ...(await measure(probe)) };
    } catch (error) {
      return { probe, error: error.errors?.map((e) => e.text).join('; ') ?? String(error) };
    }
  }),
);

const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const rows = results.map(({ probe, minified, gzip, error }) => {
  const over = gzip > probe.ceilingGzipBytes;
  const status = error ? 'ERROR' : !over ? 'ok' : probe.waiver ? 'OVER (waived)' : 'OVER';
  return [probe.name, error ? '-' : kb(minified), error ? '-' : kb(gzip), kb(probe.ceilingGzipBytes), status];
});
const header = ['probe', 'minified', 'gzip', 'ceiling', ''];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
const line = (cells) =>
  cells.map((c, i) => (i === 0 || i === 4 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
console.log('bundle sizes (esbuild, platform browser, minified; gzip -9), built dist/:');
console.log(`  ${line(header)}`.trimEnd());
for (const row of rows) console.log(`  ${line(row)}`.trimEnd());

for (const { probe, gzip, heaviest, error } of results) {
  if (error) {
    errors.push(`${probe.name}: could not bundle: ${error}`);
    continue;
  }
  if (gzip <= probe.ceilingGzipBytes) continue;
  const inputs = heaviest.map((h) => `      ${String(h.bytesInOutput).padStart(7)} B  ${h.input}`).join('\n');
  const what = `${probe.name}: ${gzip} B gz, above its ceiling of ${probe.ceilingGzipBytes} B (${probe.basis})`;
  if (probe.waiver) {
    console.log(`\n  waived: ${what}\n    ${probe.waiver}\n    heaviest inputs (minified bytes):\n${inputs}`);
  } else {
    errors.push(`${what}\n    heaviest inputs (minified bytes):\n${inputs}`);
  }
}

if (errors.length) {
  console.error(
    `\nbundle sizes: ${errors.length} failure(s) (ceilings in ${relative(repoRoot, ceilingsFile)})`,
  );
  for (const e of errors) console.error(`  ${e}`);
  process.exit(1);
}
console.log('\nbundle sizes: ok');
