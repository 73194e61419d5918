import { constants, existsSync } from 'node:fs';
import { access, cp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { messageOf } from '@agentwire/internal';
import { ConformanceError, isConformanceError } from '../errors.js';
import { formatReportTable } from '../format-report.js';
import { type CaseResult, runSuite, type SuiteReport } from '../run-suite.js';
import {
  bindSubjects,
  INTERFACES,
  type InterfaceRules,
  type SubjectSuite,
} from '../subjects/subject-suites.js';
import type { ConformanceSuite } from '../suite.js';
import {
  type PlatformAdapterSuiteOptions,
  platformAdapterSuite,
} from '../suites/relay-platform/platform-adapter-suite.js';
import { bundledSuites, type RunEntry, type RunRow, startFailureReport, startRun } from './bundled-suites.js';
import { type AgentCallRecord, formatAgentCalls, targetRun } from './live-targets.js';
import { type CliOptions, parseCliArgs, USAGE } from './parse-args.js';

/** One line of an expected-failures baseline: a case id, for every row or for one subject's row. */
export interface ExpectedFailureEntry {
  readonly caseId: string;
  /** The subject whose row the failure is expected in; every row running the case when absent. */
  readonly subject?: string;
}

/**
 * Reads an expected-failures baseline: one entry per line, `CASE_ID` (every row that runs the case) or
 * `CASE_ID @ SUBJECT` (only the row of that subject; the subject is the rest of the line); blank lines
 * are ignored and `#` starts a comment (whole-line or trailing).
 *
 * @example
 * ```text
 * # known gaps of our connector, tracked in #42
 * relay.live.auth.expired-token
 * agent-connector.contract.wake.observed @ my tmux connector   # wakes are not observable yet
 * ```
 */
export function parseExpectedFailures(text: string): ExpectedFailureEntry[] {
  const entries = new Map<string, ExpectedFailureEntry>();
  for (const line of text.split(/\r?\n/)) {
    const content = line.replace(/#.*$/, '').trim();
    if (content === '') continue;
    const at = content.indexOf(' @ ');
    const caseId = (at < 0 ? content : content.slice(0, at)).trim();
    const subject = at < 0 ? undefined : content.slice(at + 3).trim();
    const entry = subject === undefined || subject === '' ? { caseId } : { caseId, subject };
    entries.set(`${entry.caseId}\u0000${entry.subject ?? ''}`, entry);
  }
  return [...entries.values()];
}

/** A suite as it runs in one row, under the subject the row names. */
interface RowSuite {
  readonly suite: ConformanceSuite<unknown>;
  readonly subject?: string;
}

/**
 * Hands each row the baseline case ids that apply to it: those listed without a subject that its suite
 * has, and those listed with its subject.
 *
 * @throws {ConformanceError} `cli_usage`: when an entry names a case that no row to run has (a typo or a
 *   renamed case), or a subject no row runs under, since such an entry could never go stale.
 */
export function expectedFailuresByRow<Row extends RowSuite>(
  entries: readonly ExpectedFailureEntry[],
  rows: readonly Row[],
  file: string,
): ReadonlyMap<Row, readonly string[]> {
  const byRow = new Map<Row, string[]>();
  const claimed = new Set<ExpectedFailureEntry>();
  for (const row of rows) {
    const caseIds = new Set(row.suite.cases.map((c) => c.id));
    const own = entries.filter(
      (entry) => caseIds.has(entry.caseId) && (entry.subject === undefined || entry.subject === row.subject),
    );
    for (const entry of own) claimed.add(entry);
    byRow.set(
      row,
      own.map((entry) => entry.caseId),
    );
  }
  const unknown = entries.filter((entry) => !claimed.has(entry));
  if (unknown.length > 0) {
    const subjects = new Set(rows.map((row) => row.subject));
    const described = unknown.map((entry) =>
      entry.subject !== undefined && !subjects.has(entry.subject)
        ? `${entry.caseId} @ ${entry.subject} (no row runs under that subject)`
        : entry.subject === undefined
          ? entry.caseId
          : `${entry.caseId} @ ${entry.subject}`,
    );
    throw new ConformanceError(
      'cli_usage',
      `${file} names cases that no row to run has: ${described.join(', ')}`,
    );
  }
  return byRow;
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
  return join((await packageManifest(from)).directory, 'fixtures');
}

/** This package's folder and `package.json`, found by walking up from `from`. */
async function packageManifest(
  from: string,
): Promise<{ readonly directory: string; readonly version: unknown }> {
  let directory = dirname(from);
  for (;;) {
    try {
      const manifest = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === PACKAGE_NAME) return { directory, version: manifest.version };
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

/** The version of this package, as its `package.json` says. */
export async function packageVersion(from: string = fileURLToPath(import.meta.url)): Promise<string> {
  return String((await packageManifest(from)).version);
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

/** The interfaces `--subjects` accepts: the runtime-neutral table, with the Node-only suites bound. */
const CLI_INTERFACES: InterfaceRules = {
  ...INTERFACES,
  platformAdapters: {
    ...INTERFACES.platformAdapters,
    suite: (options) =>
      platformAdapterSuite(options as unknown as PlatformAdapterSuiteOptions) as ConformanceSuite<unknown>,
  },
};

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
    throw new ConformanceError('cli_usage', describeImportFailure(specifier, error), { cause: error });
  }
  if (!('default' in exports)) {
    throw new ConformanceError(
      'cli_usage',
      `--subjects ${specifier} has no default export (export default { skillStores: [{ name, create }], … })`,
    );
  }
  try {
    return bindSubjects(exports.default, `--subjects ${specifier}`, CLI_INTERFACES);
  } catch (error) {
    if (!isConformanceError(error, 'invalid_subjects')) throw error;
    throw new ConformanceError('cli_usage', error.message, { cause: error });
  }
}

/**
 * Why a `--subjects` module could not be imported, in one line; for a TypeScript file this Node cannot
 * load by itself, what to do instead.
 */
export function describeImportFailure(specifier: string, error: unknown): string {
  const code = (error as { readonly code?: unknown } | null)?.code;
  if (code === 'ERR_UNKNOWN_FILE_EXTENSION' && /\.[mc]?ts$/.test(specifier)) {
    return (
      `cannot load --subjects ${specifier}: Node ${process.version} does not run TypeScript by itself; ` +
      'compile it to .js/.mjs, or start the CLI with a TypeScript loader, e.g. ' +
      '`node --import tsx node_modules/@agentwire/conformance/dist/cli.js --subjects ' +
      `${specifier}\``
    );
  }
  return `cannot load --subjects ${specifier}: ${messageOf(error)}`;
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
    const { passed, failed, skipped, unobserved, expectedFailures, stale } = report.counts;
    const parts = [`${passed} passed`];
    if (failed > 0) parts.push(paint(`${failed} failed`, 'red', this.#colour));
    if (stale > 0) parts.push(paint(`${stale} stale`, 'yellow', this.#colour));
    if (expectedFailures > 0) parts.push(`${expectedFailures} expected`);
    if (skipped > 0) parts.push(`${skipped} skipped`);
    if (unobserved > 0) {
      const notRun = `(unobserved: ${unobserved} ${unobserved === 1 ? 'case' : 'cases'} not run)`;
      parts.push(paint(notRun, 'yellow', this.#colour));
    }
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
  /**
   * Checks, before anything runs, that `path` can be written: resolves with what is wrong, or
   * `undefined`. Default: no check (the in-memory writers of tests); the CLI's own io checks the disk.
   */
  cannotWrite?(path: string): Promise<string | undefined>;
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
    cannotWrite: whyNotWritable,
    progress: {
      write: (text) => void process.stderr.write(text),
      isTTY: process.stderr.isTTY === true,
      colour: colourEnabled(process.stderr.isTTY === true, process.env),
    },
    colour: colourEnabled(process.stdout.isTTY === true, process.env),
  };
}

/**
 * Why `path` cannot be written as a new or replaced file: its folder is missing, is not a folder, or is
 * not writable, or the path is a folder; `undefined` when it can.
 */
export async function whyNotWritable(path: string): Promise<string | undefined> {
  const folder = dirname(resolve(path));
  try {
    if (!(await stat(folder)).isDirectory()) return `${folder} is not a folder`;
  } catch {
    return `the folder ${folder} does not exist`;
  }
  try {
    await access(folder, constants.W_OK);
  } catch {
    return `the folder ${folder} is not writable`;
  }
  const existing = await stat(path).catch(() => undefined);
  return existing?.isDirectory() === true ? `${path} is a folder` : undefined;
}

/** The line after a usage error: where the whole usage is. */
export const USAGE_HINT = 'Run agentwire-conformance --help for usage.';

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
    if (options.version === true) {
      io.stdout(await packageVersion());
      return EXIT_OK;
    }
    if (options.jsonFile !== undefined) {
      const problem = await io.cannotWrite?.(options.jsonFile);
      if (problem !== undefined)
        throw new ConformanceError('cli_usage', `cannot write --json ${options.jsonFile}: ${problem}`);
    }
    return await runCommand(options, io, suites);
  } catch (error) {
    if (!isConformanceError(error, 'cli_usage')) throw error;
    io.stderr(`agentwire-conformance: ${error.message}\n${USAGE_HINT}`);
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
      return runSuites(suites ?? bundledSuites(), subjects, options, io);
    }
    default: {
      const subjects = await subjectsOf(options);
      const run = await targetRun(command);
      return runSuites(run.suites, subjects, options, io, run.agentCalls);
    }
  }
}

/** The rows of the `--subjects` module, when one is given. */
async function subjectsOf(options: CliOptions): Promise<readonly SubjectSuite[]> {
  return options.subjectsModule === undefined ? [] : loadSubjects(options.subjectsModule);
}

/**
 * Starts the live subjects among `entries` (those `--only` may select), runs the rows `--only` selects
 * — the `--subjects` rows after the others — and stops the subjects again whatever happens; a stop that
 * fails is reported on stderr and fails the run.
 */
async function runSuites(
  entries: readonly RunEntry[],
  subjects: readonly SubjectSuite[],
  options: CliOptions,
  io: CliIo,
  agentCalls?: () => readonly AgentCallRecord[],
): Promise<number> {
  const only = options.only;
  // A live subject is started only when `--only` may select one of its rows.
  const selectedEntries =
    only === undefined ? entries : entries.filter((entry) => mayBeSelected(entry, only));
  const run = await startRun([...selectedEntries, ...subjects]);
  let status: number;
  let stopProblems: string[] = [];
  try {
    const fromSubjects = new Set<string>(subjects.map((row) => row.subject));
    const rows =
      only === undefined
        ? run.rows
        : selectRows(run.rows, only, (row) => isSubjectRow(row, subjects, fromSubjects));
    status = await runRows(rows, options, io, agentCalls);
  } finally {
    stopProblems = await run.stop();
    for (const problem of stopProblems) io.stderr(`agentwire-conformance: ${problem}`);
  }
  return stopProblems.length === 0 ? status : EXIT_FAILED;
}

/**
 * Whether `--only` may select a row of `entry`: a suite is kept (the selection is made on the rows), a
 * live subject only when it does not name its suites or `--only` names it or one of its suites.
 */
function mayBeSelected(entry: RunEntry, only: readonly string[]): boolean {
  if (!('start' in entry)) return true;
  const names = entry.suiteNames;
  return (
    only.includes(entry.subject) ||
    names === undefined ||
    names.some((suite) => only.some((name) => selects(name, suite, entry.subject)))
  );
}

/** Whether the `--only` name `name` selects the row of `suite` under `subject`. */
function selects(name: string, suite: string, subject: string | undefined): boolean {
  return name === suite || suite.startsWith(`${name}.`) || name === subject;
}

/** Whether `row` is one of the `--subjects` rows (a live subject of the same name is not). */
function isSubjectRow(row: RunRow, subjects: readonly SubjectSuite[], names: ReadonlySet<string>): boolean {
  return 'suite' in row && names.has(row.subject ?? '') && subjects.some((s) => s.suite === row.suite);
}

/**
 * The rows `--only` selects.
 *
 * @throws {ConformanceError} `cli_usage`: when a name selects no row, naming some that exist.
 */
function selectRows(
  rows: readonly RunRow[],
  only: readonly string[],
  isSubject: (row: RunRow) => boolean,
): RunRow[] {
  const matches = (name: string, row: RunRow) =>
    (name === SUBJECTS_SELECTOR && isSubject(row)) ||
    ('suite' in row ? selects(name, row.suite.name, row.subject) : name === row.subject);
  const unmatched = only.filter((name) => !rows.some((row) => matches(name, row)));
  if (unmatched.length > 0) {
    const known = [...new Set(rows.flatMap((row) => ('suite' in row ? [row.suite.name] : [])))];
    const shown = known.slice(0, 8).join(', ');
    throw new ConformanceError(
      'cli_usage',
      `--only ${unmatched.join(', ')} selects no suite or subject to run (suites: ${shown}${known.length > 8 ? ', …' : ''})`,
    );
  }
  return rows.filter((row) => only.some((name) => matches(name, row)));
}

/** The `--only` name that selects every `--subjects` row. */
const SUBJECTS_SELECTOR = 'subjects';

async function runRows(
  rows: readonly RunRow[],
  options: CliOptions,
  io: CliIo,
  agentCalls: (() => readonly AgentCallRecord[]) | undefined,
): Promise<number> {
  const suiteRows = rows.flatMap((row) => ('suite' in row ? [row] : []));
  const expected = await readBaseline(options.expectedFailuresFile, suiteRows, io);
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
      expectedFailures: expected.get(row) ?? [],
      ...(options.requireFull === true ? { requireFull: true } : {}),
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

async function readBaseline<Row extends RowSuite>(
  file: string | undefined,
  rows: readonly Row[],
  io: CliIo,
): Promise<ReadonlyMap<Row, readonly string[]>> {
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
  return expectedFailuresByRow(parseExpectedFailures(text), rows, file);
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
