import { CliUsageError } from './errors.js';

/** What the command line asked for. */
export interface CliOptions {
  /** Write the suite reports as JSON to this file. */
  readonly jsonFile?: string;
  /** Print usage and exit. */
  readonly help: boolean;
}

export const USAGE = `Usage: agentwire-conformance [--json FILE]

Runs every conformance suite against the implementations bundled with agentwire and prints a summary.

Options:
  --json FILE   also write the full reports as JSON to FILE
  -h, --help    show this help

Exit status: 0 when every suite passed, 1 when a case failed or an expected failure went stale,
2 for a usage error.`;

/**
 * Parses the CLI arguments (without the node and script paths).
 *
 * @throws {CliUsageError} for an unknown flag, a positional argument or a flag missing its value.
 */
export function parseCliArgs(args: readonly string[]): CliOptions {
  let jsonFile: string | undefined;
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-h' || arg === '--help') {
      help = true;
    } else if (arg === '--json' || arg.startsWith('--json=')) {
      const value = arg === '--json' ? args[++i] : arg.slice('--json='.length);
      if (value === undefined || value === '' || (arg === '--json' && value.startsWith('-'))) {
        throw new CliUsageError('--json needs a file name');
      }
      if (jsonFile !== undefined) throw new CliUsageError('--json given more than once');
      jsonFile = value;
    } else if (arg.startsWith('-')) {
      throw new CliUsageError(`unknown option ${arg}`);
    } else {
      throw new CliUsageError(`unexpected argument ${arg}`);
    }
  }
  return jsonFile === undefined ? { help } : { help, jsonFile };
}
