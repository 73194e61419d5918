import { existsSync } from 'node:fs';
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { messageOf } from '@agentwire/internal';
import { ConformanceError, isConformanceError } from '../errors.js';
import { formatReportTable } from '../format-report.js';
import { type CaseResult, runSuite, type SuiteReport } from '../run-suite.js';
import { type SubjectSuite, subjectSuites } from '../subjects/subject-suites.js';
import type { ConformanceSuite } from '../suite.js';
import { bundledSuites, type RunEntry, type RunRow, startFailureReport, startRun } from './bundled-suites.js';
import { type AgentCallRecord, formatAgentCalls, targetRun } from './live-targets.js';
import { type CliOptions, parseCliArgs, USAGE } from './parse-args.js';

/**
 * Reads an expected-failures baseline: one case id per line; blank lines are ignored and `#` starts a
 * comment (whole-line or trailing).
 *
 * @example
 * ```text
 * # known gaps of our connector, tracked in #42
 * relay.live.auth.expired-token
 * relay.live.outbound.prompt   # prompts arrive in 2.0
 * ```
 */
export function parseExpectedFailures(text: string): string[] {
  const ids = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const id = line.replace(/#.*$/, '').trim();
    if (id !== '') ids.add(id);
  }
  return [...ids];
}

/**
 * Hands each suite the baseline ids that name its cases.
 *
 * @throws {ConformanceError} `cli_usage`: when an id names no case of any suite to run (a typo or a renamed
 *   case), since such a baseline entry could never go stale.
 */
export function expectedFailuresBySuite(
  ids: readonly string[],
  suites: readonly ConformanceSuite<unknown>[],
  file: string,
): ReadonlyMap<ConformanceSuite<unknown>, readonly string[]> {
  const bySuite = new Map<ConformanceSuite<unknown>, string[]>();
  const claimed = new Set<string>();
  for (const suite of suites) {
    const caseIds = new Set(suite.cases.map((c) => c.id));
    const own = ids.filter((id) => caseIds.has(id));
    for (const id of own) claimed.add(id);
    bySuite.set(suite, own);
  }
  const unknown = ids.filter((id) => !claimed.has(id));
  if (unknown.length > 0) {
    throw new ConformanceError(
      'cli_usage',
      `${file} names cases that no suite to run has: ${unknown.join(', ')}`,
    );
  }
  return bySuite;
}

/** One fixture file: its path under `fixtures/`, its case count and its description. */
export interface FixtureSummary {
  readonly path: string;
  readonly cases: number;
  readonly description: string;
}

const PACKAGE_NAME = '@agentwire/conformance';

/**
 * The `fixtures/` folder of this package, found from this module's location (the sources in a checkout,
 * `dist/` once built and installed).
 */
export async function fixturesDirectory(from: string = fileURLToPath(import.meta.url)): Promise<string> {
  let directory = dirname(from);
  for (;;) {
    try {
      const manifest = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as {
        name?: unknown;
      };
      if (manifest.name === PACKAGE_NAME) return join(directory, 'fixtures');
    } catch {
      // No package.json here: look one folder up.
    }
    const parent = dirname(directory);
    if (parent === directory)
      throw new ConformanceError(
        'fixtures_not_found',
        `cannot find the ${PACKAGE_NAME} package above ${from}`,
      );
    directory = parent;
  }
}

/**
 * Every `*.json` fixture file under `root`, sorted by path, with its case count and description. Only
 * the outer shape is read (`description`, `cases`), so one file with odd case ids does not hide the rest.
 */
export async function listFixtureFiles(root: string): Promise<FixtureSummary[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
  const summaries: FixtureSummary[] = [];
  for (const path of files) {
    const { description, cases } = JSON.parse(await readFile(join(root, path), 'utf8')) as {
      readonly description?: unknown;
      readonly cases?: unknown;
    };
    summaries.push({
      path,
      cases: Array.isArray(cases) ? cases.length : 0,
      description: typeof description === 'string' ? description : '',
    });
  }
  return summaries;
}

/** Copies the whole fixture tree (files, README, generator tools) into `target`; returns how many files. */
export async function exportFixtures(root: string, target: string): Promise<number> {
  await cp(root, target, { recursive: true, force: true });
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).length;
}

/**
 * Imports the `--subjects` module and binds each implementation its default export describes (see
 * `ConformanceSubjects`) to its suite. `specifier` is a path (relative to `cwd`, absolute, or a
 * `file:` URL) or, when no such file exists, a package name resolved as from a module in `cwd`.
 *
 * @throws {ConformanceError} `cli_usage`: when the module cannot be found or imported, has no default export,
 *   or its default export does not have the documented shape (the message names the first problem).
 */
export async function loadSubjects(specifier: string, cwd: string = process.cwd()): Promise<SubjectSuite[]> {
  const url = moduleUrl(specifier, cwd);
  let exports: { readonly default?: unknown };
  try {
    exports = (await import(url)) as { readonly default?: unknown };
  } catch (error) {
    throw new ConformanceError('cli_usage', `cannot load --subjects ${specifier}: ${messageOf(error)}`, {
      cause: error,
    });
  }
  if (!('default' in exports)) {
    throw new ConformanceError(
      'cli_usage',
      `--subjects ${specifier} has no default export (export default { skillStores: [{ name, create }], … })`,
    );
  }
  try {
    return subjectSuites(exports.default, `--subjects ${specifier}`);
  } catch (error) {
    if (!isConformanceError(error, 'invalid_subjects')) throw error;
    throw new ConformanceError('cli_usage', error.message, { cause: error });
  }
}

function moduleUrl(specifier: string, cwd: string): string {
  if (specifier.startsWith('file:')) return specifier;
  const path = resolve(cwd, specifier);
  const looksLikePath = isAbsolute(specifier) || specifier.startsWith('.');
  if (existsSync(path)) return pathToFileURL(path).href;
  if (looksLikePath)
    throw new ConformanceError('cli_usage', `--subjects ${specifier}: no such file (${path})`);
  try {
    return pathToFileURL(createRequire(join(cwd, 'noop.js')).resolve(specifier)).href;
  } catch (error) {
    throw new ConformanceError(
      'cli_usage',
      `--subjects ${specifier}: no such file, and no package of that name is reachable from ${cwd}`,
      { cause: error },
    );
  }
}

/** Where progress is written (stderr): whether it is a terminal that can rewrite a line, and may be coloured. */
export interface ProgressStream {
  write(text: string): void;
  readonly isTTY: boolean;
  /** See {@link colourEnabled}. */
  readonly colour: boolean;
}

const STYLES = { red: '\u001b[31m', green: '\u001b[32m', yellow: '\u001b[33m', dim: '\u001b[2m' } as const;
const RESET = '\u001b[0m';
const CLEAR_LINE = '\r\u001b[2K';

/** A colour of {@link paint}. */
export type Colour = keyof typeof STYLES;

/** `text` in `colour` when `enabled`, else unchanged. */
export function paint(text: string, colour: Colour, enabled: boolean): string {
  return enabled ? `${STYLES[colour]}${text}${RESET}` : text;
}

/**
 * Whether output may be coloured: only on a terminal, and never when `NO_COLOR` is set to a non-empty
 * value (https://no-color.org).
 */
export function colourEnabled(isTTY: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  const noColor = env['NO_COLOR'];
  return isTTY && (noColor === undefined || noColor === '');
}

/**
 * Progress of a run, one suite after another: on a terminal one live line per suite
 * (`running relay.live … 12/40`) that ends as the suite's summary; elsewhere a plain line when a suite
 * starts and one when it ends.
 */
export class SuiteProgress {
  readonly #stream: ProgressStream;
  readonly #colour: boolean;
  #label = '';
  #total = 0;
  #done = 0;

  constructor(stream: ProgressStream) {
    this.#stream = stream;
    this.#colour = stream.colour;
  }

  /** A suite of `total` cases starts. */
  start(label: string, total: number): void {
    this.#label = label;
    this.#total = total;
    this.#done = 0;
    if (this.#stream.isTTY) this.#redraw();
    else this.#stream.write(`running ${label} (${total} cases)\n`);
  }

  /** One case of the running suite ended. */
  caseDone(_result: CaseResult): void {
    this.#done += 1;
    if (this.#stream.isTTY) this.#redraw();
  }

  /** The running suite ended. */
  finish(report: SuiteReport): void {
    const { passed, failed, skipped, expectedFailures, stale } = report.counts;
    const parts = [`${passed} passed`];
    if (failed > 0) parts.push(paint(`${failed} failed`, 'red', this.#colour));
    if (stale > 0) parts.push(paint(`${stale} stale`, 'yellow', this.#colour));
    if (expectedFailures > 0) parts.push(`${expectedFailures} expected`);
    if (skipped > 0) parts.push(`${skipped} skipped`);
    const status = report.ok ? paint('ok', 'green', this.#colour) : paint('FAILED', 'red', this.#colour);
    const line = `${status} ${this.#label}: ${parts.join(', ')} (${Math.round(report.durationMs)} ms)`;
    this.#stream.write(this.#stream.isTTY ? `${CLEAR_LINE}${line}\n` : `${line}\n`);
  }

  #redraw(): void {
    const label = paint(`running ${this.#label}`, 'dim', this.#colour);
    this.#stream.write(`${CLEAR_LINE}${label} … ${this.#done}/${this.#total}`);
  }
}

/** Where the CLI reads and writes; replaced in tests. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  writeFile(path: string, text: string): Promise<void>;
  /** Reads a file given on the command line. Default: from disk. */
  readFile?(path: string): Promise<string>;
  /** Where progress goes (stderr); none when absent. */
  readonly progress?: ProgressStream;
  /** Whether stdout may be coloured. Default `false`. */
  readonly colour?: boolean;
}

function nodeIo(): CliIo {
  // A reader that stops early (`| head`) closes the pipe: stop writing instead of crashing on EPIPE.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? EXIT_OK);
  });
  return {
    stdout: (text) => void process.stdout.write(`${text}\n`),
    stderr: (text) => void process.stderr.write(`${text}\n`),
    writeFile: (path, text) => writeFile(path, text, 'utf8'),
    readFile: (path) => readFile(path, 'utf8'),
    progress: {
      write: (text) => void process.stderr.write(text),
      isTTY: process.stderr.isTTY === true,
      colour: colourEnabled(process.stderr.isTTY === true, process.env),
    },
    colour: colourEnabled(process.stdout.isTTY === true, process.env),
  };
}

/** Exit statuses of the CLI. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/**
 * Runs the CLI: without a target every bundled suite, with `relay` / `agent` / `hearthnet` the
 * black-box suite against a live implementation, with `fixtures` the fixture files; `--subjects`
 * adds a row per implementation its module describes. Prints the summary table on stdout (progress on
 * stderr), optionally writes the reports as JSON, and resolves with the exit status. `suites`
 * replaces the bundled entries (tests); live subjects among them are stopped before it resolves.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(['relay', '--connector', 'ws://127.0.0.1:8080/relay', '--gateway-id', 'gw', '--secret', s]);
 * ```
 */
export async function runCli(
  args: readonly string[],
  io: CliIo = nodeIo(),
  suites?: readonly RunEntry[],
): Promise<number> {
  try {
    const options = parseCliArgs(args);
    if (options.help) {
      io.stdout(USAGE);
      return EXIT_OK;
    }
    return await runCommand(options, io, suites);
  } catch (error) {
    if (!isConformanceError(error, 'cli_usage')) throw error;
    io.stderr(`agentwire-conformance: ${error.message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
}

async function runCommand(
  options: CliOptions,
  io: CliIo,
  suites: readonly RunEntry[] | undefined,
): Promise<number> {
  const { command } = options;
  switch (command.kind) {
    case 'fixtures-list': {
      const files = await listFixtureFiles(await fixturesDirectory());
      const width = Math.max(...files.map((f) => f.path.length));
      for (const file of files) {
        io.stdout(
          `${file.path.padEnd(width)}  ${String(file.cases).padStart(4)} cases  ${firstSentence(file.description)}`,
        );
      }
      return EXIT_OK;
    }
    case 'fixtures-export': {
      const count = await exportFixtures(await fixturesDirectory(), command.directory);
      io.stdout(`exported ${count} fixture files to ${command.directory}`);
      return EXIT_OK;
    }
    case 'bundled': {
      const subjects = await subjectsOf(options);
      return runSuites([...(suites ?? bundledSuites()), ...subjects], options, io);
    }
    default: {
      const subjects = await subjectsOf(options);
      const run = await targetRun(command);
      return runSuites([...run.suites, ...subjects], options, io, run.agentCalls);
    }
  }
}

/** The rows of the `--subjects` module, when one is given. */
async function subjectsOf(options: CliOptions): Promise<readonly SubjectSuite[]> {
  return options.subjectsModule === undefined ? [] : loadSubjects(options.subjectsModule);
}

/**
 * Starts the live subjects among `entries`, runs every row, and stops them again whatever happens; a
 * stop that fails is reported on stderr and fails the run.
 */
async function runSuites(
  entries: readonly RunEntry[],
  options: CliOptions,
  io: CliIo,
  agentCalls?: () => readonly AgentCallRecord[],
): Promise<number> {
  const run = await startRun(entries);
  let status: number;
  let stopProblems: string[] = [];
  try {
    status = await runRows(run.rows, options, io, agentCalls);
  } finally {
    stopProblems = await run.stop();
    for (const problem of stopProblems) io.stderr(`agentwire-conformance: ${problem}`);
  }
  return stopProblems.length === 0 ? status : EXIT_FAILED;
}

async function runRows(
  rows: readonly RunRow[],
  options: CliOptions,
  io: CliIo,
  agentCalls: (() => readonly AgentCallRecord[]) | undefined,
): Promise<number> {
  const suites = rows.flatMap((row) => ('suite' in row ? [row.suite] : []));
  const expected = await readBaseline(options.expectedFailuresFile, suites, io);
  const progress = io.progress === undefined ? undefined : new SuiteProgress(io.progress);
  const reports: SuiteReport[] = [];
  for (const row of rows) {
    if (!('suite' in row)) {
      const report = startFailureReport(row.subject, row.startError);
      progress?.start(`${report.suite} (${row.subject})`, 0);
      progress?.finish(report);
      reports.push(report);
      continue;
    }
    const { suite, subject } = row;
    progress?.start(subject === undefined ? suite.name : `${suite.name} (${subject})`, suite.cases.length);
    const report = await runSuite(suite, {
      ...(subject === undefined ? {} : { subject }),
      expectedFailures: expected.get(suite) ?? [],
      onResult: (result) => progress?.caseDone(result),
    });
    progress?.finish(report);
    reports.push(report);
  }
  io.stdout(colourProblems(formatReportTable(reports), io.colour ?? false));
  const calls = agentCalls?.();
  if (calls !== undefined) io.stdout(`\n${formatAgentCalls(calls)}`);
  const ok = reports.every((r) => r.ok);
  if (options.jsonFile !== undefined) {
    const document = calls === undefined ? { ok, reports } : { ok, reports, agentCalls: calls };
    await io.writeFile(options.jsonFile, `${JSON.stringify(document, null, 2)}\n`);
  }
  return ok ? EXIT_OK : EXIT_FAILED;
}

async function readBaseline(
  file: string | undefined,
  suites: readonly ConformanceSuite<unknown>[],
  io: CliIo,
): Promise<ReadonlyMap<ConformanceSuite<unknown>, readonly string[]>> {
  if (file === undefined) return new Map();
  let text: string;
  try {
    text = await (io.readFile ?? ((path: string) => readFile(path, 'utf8')))(file);
  } catch (error) {
    throw new ConformanceError(
      'cli_usage',
      `cannot read --expected-failures ${file}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return expectedFailuresBySuite(parseExpectedFailures(text), suites, file);
}

/** The first sentence of a fixture description (they run to paragraphs). */
function firstSentence(text: string): string {
  const end = text.search(/\.(\s|$)/);
  return end < 0 ? text : text.slice(0, end + 1);
}

/** Colours the labels of the problem lines of a report table. */
function colourProblems(table: string, colour: boolean): string {
  if (!colour) return table;
  return table.replace(/^(FAIL|ERROR|STALE|UNOBSERVED)(?= )/gm, (label) =>
    paint(label, label === 'STALE' || label === 'UNOBSERVED' ? 'yellow' : 'red', true),
  );
}
