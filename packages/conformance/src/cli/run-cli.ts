import { readFile, writeFile } from 'node:fs/promises';
import { ConformanceError, isConformanceError } from '../errors.js';
import { formatReportTable } from '../format-report.js';
import { runSuite, type SuiteReport } from '../run-suite.js';
import type { SubjectSuite } from '../subjects/subject-suites.js';
import type { ConformanceSuite } from '../suite.js';
import { bundledSuites } from './bundled-suites.js';
import { expectedFailuresBySuite, parseExpectedFailures } from './expected-failures.js';
import { exportFixtures, fixturesDirectory, listFixtureFiles } from './fixture-files.js';
import { type RunEntry, type RunRow, startFailureReport, startRun } from './live-subject.js';
import { targetRun } from './live-targets.js';
import { loadSubjects } from './load-subjects.js';
import { type CliOptions, parseCliArgs, USAGE } from './parse-args.js';
import { colourEnabled, type ProgressStream, paint, SuiteProgress } from './progress.js';
import { type AgentCallRecord, formatAgentCalls } from './receipt-recording-connector.js';

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
  return table.replace(/^(FAIL |ERROR|STALE)(?= )/gm, (label) =>
    paint(label, label === 'STALE' ? 'yellow' : 'red', true),
  );
}
