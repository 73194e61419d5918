import { type SuiteReport, summarizeError } from '../run-suite.js';
import type { ConformanceSuite } from '../suite.js';
import type { BundledSuite } from './bundled-suites.js';

/**
 * An implementation the CLI runs in-process for its suites (a server on 127.0.0.1, port 0): started
 * before the first suite of the run, stopped after the last one — also when a suite fails or the run
 * is refused.
 *
 * @example
 * ```ts
 * const nodeSubject: LiveSubject = {
 *   subject: 'agentwire HearthNet node, in-process',
 *   start: async () => {
 *     const node = await startNode();
 *     return { suites: [hearthnetNodeSuite({ baseUrl: node.url, … })], stop: () => node.close() };
 *   },
 * };
 * ```
 */
export interface LiveSubject {
  /** Names the implementation in the report. */
  readonly subject: string;
  /** Starts it; resolves with the suites to run against it and how to stop it. */
  start(): Promise<StartedSubject>;
}

/** A started {@link LiveSubject}: its suites, and how to stop it. */
export interface StartedSubject {
  readonly suites: readonly ConformanceSuite<unknown>[];
  /** Releases everything `start` opened (servers, sockets, folders). */
  stop(): Promise<void>;
}

/** What the CLI runs: a bare suite, a suite bound to its subject, or a live subject. */
export type RunEntry = ConformanceSuite<unknown> | BundledSuite | LiveSubject;

/** One row of a run: a suite (bound to its subject when it has one), or a live subject that did not start. */
export type RunRow =
  | { readonly suite: ConformanceSuite<unknown>; readonly subject?: string }
  | { readonly subject: string; readonly startError: unknown };

/** The rows of a run, with the live subjects started for it. */
export interface StartedRun {
  readonly rows: readonly RunRow[];
  /** Stops every started live subject, last started first; resolves with a line per stop that failed. */
  stop(): Promise<string[]>;
}

/**
 * Starts the live subjects among `entries`, one after another, and lists the rows to run in entry
 * order. A subject whose `start` rejects becomes one row holding the error; the others still run.
 */
export async function startRun(entries: readonly RunEntry[]): Promise<StartedRun> {
  const rows: RunRow[] = [];
  const running: { readonly subject: string; readonly stop: () => Promise<void> }[] = [];
  for (const entry of entries) {
    if ('start' in entry) {
      try {
        const started = await entry.start();
        running.push({ subject: entry.subject, stop: () => started.stop() });
        for (const suite of started.suites) rows.push({ suite, subject: entry.subject });
      } catch (error) {
        rows.push({ subject: entry.subject, startError: error });
      }
    } else {
      rows.push('suite' in entry ? entry : { suite: entry });
    }
  }
  return {
    rows,
    stop: async () => {
      const problems: string[] = [];
      for (const { subject, stop } of running.reverse()) {
        try {
          await stop();
        } catch (error) {
          const { name, message } = summarizeError(error);
          problems.push(`stopping ${subject} failed: ${name}: ${message}`);
        }
      }
      return problems;
    },
  };
}

/** The report row of a live subject that did not start: no case ran, and the run fails. */
export function startFailureReport(subject: string, error: unknown): SuiteReport {
  return {
    suite: 'live-subject.start',
    version: '-',
    subject,
    startedAt: new Date().toISOString(),
    durationMs: 0,
    counts: { passed: 0, failed: 0, skipped: 0, expectedFailures: 0, stale: 0 },
    ok: false,
    results: [],
    errors: [summarizeError(error, `${subject} did not start: `)],
  };
}
