import { writeFile } from 'node:fs/promises';
import { formatReportTable } from '../format-report.js';
import { runSuite, type SuiteReport } from '../run-suite.js';
import type { ConformanceSuite } from '../suite.js';
import { type BundledSuite, bundledSuites } from './bundled-suites.js';
import { CliUsageError } from './errors.js';
import { parseCliArgs, USAGE } from './parse-args.js';

/** Where the CLI writes; replaced in tests. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  writeFile(path: string, text: string): Promise<void>;
}

const nodeIo: CliIo = {
  stdout: (text) => void process.stdout.write(`${text}\n`),
  stderr: (text) => void process.stderr.write(`${text}\n`),
  writeFile: (path, text) => writeFile(path, text, 'utf8'),
};

/** Exit statuses of the CLI. */
export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

/**
 * Runs the CLI: every suite in turn, the summary table on stdout, optionally the reports as JSON.
 * Resolves with the exit status.
 */
export async function runCli(
  args: readonly string[],
  io: CliIo = nodeIo,
  suites: readonly (ConformanceSuite<unknown> | BundledSuite)[] = bundledSuites(),
): Promise<number> {
  let options: ReturnType<typeof parseCliArgs>;
  try {
    options = parseCliArgs(args);
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    io.stderr(`agentwire-conformance: ${error.message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  if (options.help) {
    io.stdout(USAGE);
    return EXIT_OK;
  }
  const reports: SuiteReport[] = [];
  for (const entry of suites) {
    reports.push(
      'subject' in entry ? await runSuite(entry.suite, { subject: entry.subject }) : await runSuite(entry),
    );
  }
  io.stdout(formatReportTable(reports));
  const ok = reports.every((r) => r.ok);
  if (options.jsonFile !== undefined) {
    await io.writeFile(options.jsonFile, `${JSON.stringify({ ok, reports }, null, 2)}\n`);
  }
  return ok ? EXIT_OK : EXIT_FAILED;
}
