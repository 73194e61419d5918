// `pnpm mutation [PAIR|SUITE …] [--list] [--concurrency N]`: mutation testing of the conformance
// suites. For each pair of mutation/pairs.mjs, Stryker mutates the implementation's source files and
// runs only that pair's suite against every mutant (mutation/pair.mutation.test.ts); a mutant the suite
// does not fail is a mistake an implementer could make and still pass. Prints, per pair, Stryker's two
// scores — over all mutants, and over the mutants the suite's cases reach (covered) — and writes them,
// with each survivor, under reports/mutation/.
//
// Stryker mutates the pair's files IN PLACE (a pnpm workspace keeps each package's dependencies in its
// own node_modules, which Stryker's copy of the project would not have) and restores them when it
// ends, also on Ctrl-C; do not edit sources or run other tests in this checkout while it runs. A run
// killed outright can leave them mutated: `git checkout -- <the files --list shows>` restores them.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { EQUIVALENTS } from './equivalents.mjs';
import { PAIRS } from './pairs.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = dirname(here);
const reportDir = join(root, 'reports', 'mutation');
/** The spans resolved so far (a rescore matches every survivor against every span). */
const patterns = new Map();

/** Globs a pair's `mutate` never covers, whatever its own globs match. */
const NOT_MUTATED = ['!**/*.test.ts', '!**/*test-support*.ts', '!**/index.ts'];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    list: { type: 'boolean', default: false },
    'from-reports': { type: 'boolean', default: false },
    concurrency: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(`Usage: pnpm mutation [PAIR|SUITE …] [--list] [--concurrency N] [--from-reports]

Runs Stryker over each pair (all pairs when none is named; a suite name selects its pairs) and prints
the mutation score over all mutants and over covered mutants. Reports go to reports/mutation/.
--from-reports scores the last run's reports again (after editing mutation/equivalents.mjs) without
running Stryker.`);
  process.exit(0);
}

if (values.list) {
  const width = Math.max(...PAIRS.map((p) => p.id.length));
  for (const pair of PAIRS) {
    const also = (pair.also ?? []).map((row) => `\n${' '.repeat(width + 2)}+ ${row.suite} × ${row.subject}`);
    console.log(
      `${pair.id.padEnd(width)}  ${pair.suite} × ${pair.subject}${also.join('')}\n${' '.repeat(width + 2)}${pair.mutate.map(mutatePattern).join(' ')}`,
    );
  }
  process.exit(0);
}

const selected =
  positionals.length === 0
    ? PAIRS
    : PAIRS.filter((p) => positionals.includes(p.id) || positionals.includes(p.suite));
const unknown = positionals.filter((name) => !PAIRS.some((p) => p.id === name || p.suite === name));
if (unknown.length > 0) {
  console.error(`pnpm mutation: no pair or suite named ${unknown.join(', ')} (see --list)`);
  process.exit(2);
}
const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0)) {
  console.error('pnpm mutation: --concurrency must be a positive integer');
  process.exit(2);
}

/** @type {ReturnType<typeof score>[]} */
const rows = [];
if (values['from-reports']) {
  for (const pair of selected) {
    const reportFile = join(reportDir, `${pair.id}.json`);
    if (!existsSync(reportFile)) {
      console.error(
        `pnpm mutation: no report of ${pair.id} yet (${relative(root, reportFile)}); run it first`,
      );
      process.exit(2);
    }
    const results = withEquivalents(
      pair,
      resultsOfReport(JSON.parse(readFileSync(reportFile, 'utf8'))).filter((r) => mutatedBy(pair, r)),
    );
    rows.push(score(pair, results, 0));
    writeFileSync(join(reportDir, `${pair.id}.survivors.txt`), survivorsText(pair, results));
  }
} else {
  const { Stryker } = await import('@stryker-mutator/core');
  const vitestRunner = fileURLToPath(import.meta.resolve('@stryker-mutator/vitest-runner'));
  process.chdir(root);
  mkdirSync(reportDir, { recursive: true });

  for (const pair of selected) {
    console.log(`\n== ${pair.id}: ${pair.suite} × ${pair.subject}`);
    process.env['AGENTWIRE_MUTATION_PAIR'] = pair.id;
    const started = Date.now();
    const stryker = new Stryker({
      testRunner: 'vitest',
      plugins: [vitestRunner],
      vitest: { configFile: 'mutation/vitest.config.ts', related: false },
      // Test files, their support modules and barrels are never the implementation under test.
      mutate: [...pair.mutate.map(mutatePattern), ...NOT_MUTATED],
      inPlace: true,
      // vitest never type-checks, so no file needs Stryker's `// @ts-nocheck` header: only the pair's
      // own files are touched (and restored).
      disableTypeChecks: false,
      // perTest runs each mutant against the cases that reached it. A pair whose implementation caches
      // what it computed (compiled validators) runs every case instead: its pairs.mjs `coverage` is read
      // by pair.mutation.test.ts, as Stryker's vitest runner records per-case coverage whatever this says.
      coverageAnalysis: 'perTest',
      ...(concurrency === undefined ? {} : { concurrency }),
      timeoutMS: 10_000,
      reporters: ['progress-append-only', 'json'],
      jsonReporter: { fileName: relative(root, join(reportDir, `${pair.id}.json`)) },
      tempDirName: '.stryker-tmp',
      cleanTempDir: 'always',
      fileLogLevel: 'off',
      logLevel: 'warn',
    });
    const results = withEquivalents(pair, resultsOfRun(await stryker.runMutationTest()));
    const row = score(pair, results, (Date.now() - started) / 60_000);
    rows.push(row);
    writeFileSync(join(reportDir, `${pair.id}.survivors.txt`), survivorsText(pair, results));
    console.log(formatTable([row]));
  }
}

const table = formatTable(rows);
writeFileSync(join(reportDir, 'summary.md'), `${table}\n`);
console.log(`\n${table}\n\nSurvivors: reports/mutation/<pair>.survivors.txt`);

/**
 * Whether `result` lies in what `pair` mutates now (its files, or the lines of its spans): a report from
 * before the pair was narrowed holds mutants the pair no longer measures.
 */
function mutatedBy(pair, result) {
  return pair.mutate.some((entry) => {
    if (typeof entry !== 'string') {
      const [file, lines] = mutatePattern(entry).split(':');
      const [first, last] = lines.split('-').map(Number);
      return result.fileName === file && result.line >= first && result.line <= last;
    }
    return globRegExp(entry).test(result.fileName);
  });
}

/** A `mutate` glob as a regular expression: `*` within one folder, `{a,b}` alternatives. */
function globRegExp(glob) {
  const source = glob
    .replace(/[.+^$()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '[^/]*')
    .replace(/\{([^}]*)\}/g, (_, options) => `(?:${options.split(',').join('|')})`);
  return new RegExp(`^${source}$`);
}

/** A `mutate` entry as Stryker takes it: a glob as it is, a span as `file:first-last` (lines, from 1). */
function mutatePattern(entry) {
  if (typeof entry === 'string') return entry;
  const key = JSON.stringify([entry.file, entry.from, entry.until]);
  let pattern = patterns.get(key);
  if (pattern === undefined) {
    pattern = spanPattern(entry);
    patterns.set(key, pattern);
  }
  return pattern;
}

function spanPattern(entry) {
  if (typeof entry.from !== 'string')
    throw new Error(`pairs.mjs: a span of ${entry.file} names no from line`);
  const lines = readFileSync(join(root, entry.file), 'utf8').split('\n');
  const first = lines.findIndex((line) => line.includes(entry.from));
  if (first < 0)
    throw new Error(`pairs.mjs: no line of ${entry.file} contains ${JSON.stringify(entry.from)}`);
  let after = lines.length;
  if (entry.until !== undefined) {
    after = lines.findIndex((line, index) => index > first && line.includes(entry.until));
    if (after < 0)
      throw new Error(
        `pairs.mjs: no line of ${entry.file} after line ${first + 1} contains ${JSON.stringify(entry.until)}`,
      );
  }
  return `${entry.file}:${first + 1}-${after}`;
}

/**
 * The survivors of a run as `{ fileName, line, column, mutatorName, replacement, status, lineText }`,
 * from Stryker's results (the files are read back once restored) or from its JSON report (which keeps
 * each file's source as it was mutated).
 */
function resultsOfReport(report) {
  const results = [];
  for (const [fileName, file] of Object.entries(report.files)) {
    // A report from before NOT_MUTATED held test files too; they are not the implementation.
    if (/\.test\.ts$|test-support|\/index\.ts$/.test(fileName)) continue;
    const lines = file.source.split('\n');
    for (const mutant of file.mutants) {
      results.push({
        fileName: relative(root, join(root, fileName)),
        line: mutant.location.start.line,
        column: mutant.location.start.column,
        mutatorName: mutant.mutatorName,
        replacement: mutant.replacement ?? '',
        status: mutant.status,
        lineText: lines[mutant.location.start.line - 1] ?? '',
      });
    }
  }
  return results;
}

function resultsOfRun(results) {
  const sources = new Map();
  const linesOf = (fileName) => {
    if (!sources.has(fileName)) sources.set(fileName, readFileSync(fileName, 'utf8').split('\n'));
    return sources.get(fileName);
  };
  return results.map((r) => ({
    fileName: relative(root, r.fileName),
    line: r.location.start.line,
    column: r.location.start.column,
    mutatorName: r.mutatorName,
    replacement: r.replacement ?? '',
    status: r.status,
    lineText: linesOf(r.fileName)[r.location.start.line - 1] ?? '',
  }));
}

/**
 * The results, each surviving or uncovered mutant with `equivalent`: the entry of
 * mutation/equivalents.mjs that sets it aside, if any.
 */
function withEquivalents(pair, results) {
  const entries = EQUIVALENTS.filter((entry) => entry.pairs.includes(pair.id));
  return results.map((result) => {
    if (result.status !== 'Survived' && result.status !== 'NoCoverage') return result;
    const equivalent = entries.find(
      (entry) =>
        entry.file === result.fileName &&
        (entry.mutators === undefined || entry.mutators.includes(result.mutatorName)) &&
        (entry.span === undefined || inSpan(entry, result.line)) &&
        (entry.code === undefined ||
          (entry.exact === true
            ? result.lineText.trim() === entry.code
            : result.lineText.includes(entry.code))) &&
        (entry.replacement === undefined || result.replacement.includes(entry.replacement)) &&
        (entry.column === undefined || result.column === entry.column),
    );
    return { ...result, equivalent };
  });
}

/** Whether `line` lies in the span of an equivalents entry that names one (resolved in the current file). */
function inSpan(entry, line) {
  const [first, last] = mutatePattern({ file: entry.file, ...entry.span })
    .split(':')[1]
    .split('-')
    .map(Number);
  return line >= first && line <= last;
}

/**
 * Stryker's two scores — detected (killed or timed out) over every valid mutant, and over the mutants
 * some case reached (covered); ignored, compile- and runtime-error mutants count in neither — and the
 * same two with the survivors mutation/equivalents.mjs lists set aside, as Stryker sets aside the
 * mutants it is told to ignore.
 */
function score(pair, results, minutes) {
  const count = (...statuses) => results.filter((r) => statuses.includes(r.status)).length;
  const killed = count('Killed');
  const timeout = count('Timeout');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const equivalentSurvived = results.filter((r) => r.status === 'Survived' && r.equivalent).length;
  const equivalentNoCoverage = results.filter((r) => r.status === 'NoCoverage' && r.equivalent).length;
  const detected = killed + timeout;
  const valid = detected + survived + noCoverage;
  const covered = detected + survived;
  const ratio = (part, whole) => (whole === 0 ? 100 : (100 * part) / whole);
  return {
    pair: `${pair.id} (${pair.suite} × ${pair.subject})`,
    mutants: valid,
    killed,
    timeout,
    survived,
    noCoverage,
    equivalent: equivalentSurvived + equivalentNoCoverage,
    all: ratio(detected, valid),
    covered: ratio(detected, covered),
    allNet: ratio(detected, valid - equivalentSurvived - equivalentNoCoverage),
    coveredNet: ratio(detected, covered - equivalentSurvived),
    minutes,
  };
}

function formatTable(list) {
  const lines = [
    '| pair | mutants | killed | timeout | survived | no coverage | of which equivalent | score (all) | score (covered) | without equivalents (all / covered) | minutes |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const percent = (value) => `${value.toFixed(1)} %`;
  for (const r of list) {
    lines.push(
      `| ${r.pair} | ${r.mutants} | ${r.killed} | ${r.timeout} | ${r.survived} | ${r.noCoverage} | ${r.equivalent} | ${percent(r.all)} | ${percent(r.covered)} | ${percent(r.allNet)} / ${percent(r.coveredNet)} | ${r.minutes.toFixed(1)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * One line per surviving or uncovered mutant: where, which mutator, and what it replaced; `EQUIVALENT`
 * with the reason for those mutation/equivalents.mjs sets aside. Entries of that list that matched no
 * mutant of the pair end the file, so that a stale entry shows.
 */
function survivorsText(pair, results) {
  const used = new Set();
  const lines = results
    .filter((r) => r.status === 'Survived' || r.status === 'NoCoverage')
    .sort((a, b) => a.fileName.localeCompare(b.fileName) || a.line - b.line || a.column - b.column)
    .map((r) => {
      const { equivalent } = r;
      if (equivalent !== undefined) used.add(equivalent);
      const tag =
        equivalent !== undefined ? 'EQUIVALENT' : r.status === 'Survived' ? 'SURVIVED  ' : 'NO-COVER  ';
      const replacement = r.replacement.replace(/\s+/g, ' ').slice(0, 120);
      const why = equivalent === undefined ? '' : `\n            ${equivalent.reason}`;
      return `${tag}  ${r.fileName}:${r.line}:${r.column}  ${r.mutatorName}  → ${replacement}${why}`;
    });
  const stale = EQUIVALENTS.filter((entry) => entry.pairs.includes(pair.id) && !used.has(entry)).map(
    (entry) =>
      `STALE EQUIVALENT  ${entry.file}: ${entry.mutators?.join(', ') ?? 'any mutator'} ${
        entry.span === undefined
          ? `on a line with ${JSON.stringify(entry.code)}`
          : `from ${JSON.stringify(entry.span.from)}`
      }`,
  );
  return `${[...lines, ...stale].join('\n')}\n`;
}
