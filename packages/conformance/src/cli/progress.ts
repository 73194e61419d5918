import type { CaseResult, SuiteReport } from '../run-suite.js';

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
