import { readFile, writeFile } from 'node:fs/promises';
import { formatReportTable } from '../format-report.js';
import { runSuite, type SuiteReport } from '../run-suite.js';
import type { ConformanceSuite } from '../suite.js';
import { type BundledSuite, bundledSuites } from './bundled-suites.js';
import { CliUsageError } from './errors.js';
import { expectedFailuresBySuite, parseExpectedFailures } from './expected-failures.js';
import { exportFixtures, fixturesDirectory, listFixtureFiles } from './fixture-files.js';
import { targetRun } from './live-targets.js';
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
 * black-box suite against a live implementation, with `fixtures` the fixture files. Prints the summary
 * table on stdout (progress on stderr), optionally writes the reports as JSON, and resolves with the
 * exit status.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(['relay', '--connector', 'ws://127.0.0.1:8080/relay', '--gateway-id', 'gw', '--secret', s]);
 * ```
 */
export async function runCli(
  args: readonly string[],
  io: CliIo = nodeIo(),
  suites?: readonly (ConformanceSuite<unknown> | BundledSuite)[],
): Promise<number> {
  try {
    const options = parseCliArgs(args);
    if (options.help) {
      io.stdout(USAGE);
      return EXIT_OK;
    }
    return await runCommand(options, io, suites);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    io.stderr(`agentwire-conformance: ${error.message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
}

async function runCommand(
  options: CliOptions,
  io: CliIo,
  suites: readonly (ConformanceSuite<unknown> | BundledSuite)[] | undefined,
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
    case 'bundled':
      return runSuites(suites ?? bundledSuites(), options, io);
    default: {
      const run = await targetRun(command);
      return runSuites(run.suites, options, io, run.agentCalls);
    }
  }
}

async function runSuites(
  entries: readonly (ConformanceSuite<unknown> | BundledSuite)[],
  options: CliOptions,
  io: CliIo,
  agentCalls?: () => readonly AgentCallRecord[],
): Promise<number> {
  const suites = entries.map((entry) => ('subject' in entry ? entry.suite : entry));
  const expected = await readBaseline(options.expectedFailuresFile, suites, io);
  const progress = io.progress === undefined ? undefined : new SuiteProgress(io.progress);
  const reports: SuiteReport[] = [];
  for (const entry of entries) {
    const { suite, subject } = 'subject' in entry ? entry : { suite: entry, subject: undefined };
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
    throw new CliUsageError(
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
