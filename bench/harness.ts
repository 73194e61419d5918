// A small, dependency-free timing harness: each case is warmed up, then timed in several samples of
// a fixed duration, interleaved with the other cases of its group; the reported figure is the median
// ops/s over the samples, so one slow sample (GC, the other core busy) does not decide the result.

export interface BenchCase {
  readonly name: string;
  readonly fn: () => unknown;
}

export interface BenchResult {
  readonly name: string;
  readonly opsPerSecond: number;
  readonly microsPerOp: number;
}

export interface BenchOptions {
  readonly samples?: number;
  readonly sampleMs?: number;
  readonly warmupMs?: number;
}

let sink: unknown;

function timeFor(fn: () => unknown, ms: number): number {
  let ops = 0;
  let batch = 1;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < batch; i++) sink = fn();
    ops += batch;
    elapsed = performance.now() - start;
    if (elapsed < ms / 10) batch *= 2;
  }
  return (ops * 1000) / elapsed;
}

/**
 * Measures the cases of one group in interleaved rounds — every case takes one sample per round —
 * so that a slow period of the machine (GC, a noisy neighbour) hits all cases alike instead of one.
 */
export function measureInterleaved(cases: readonly BenchCase[], options: BenchOptions = {}): BenchResult[] {
  const { samples = 7, sampleMs = 200, warmupMs = 200 } = options;
  for (const c of cases) timeFor(c.fn, warmupMs);
  const rates = cases.map((): number[] => []);
  for (let round = 0; round < samples; round++) {
    for (const [i, c] of cases.entries()) rates[i]?.push(timeFor(c.fn, sampleMs));
  }
  return cases.map((c, i) => {
    const sorted = (rates[i] ?? []).sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    return { name: c.name, opsPerSecond: median, microsPerOp: 1e6 / median };
  });
}

/** Runs the cases of one group and prints them with their ratio to the group's baseline case. */
export function runGroup(
  title: string,
  baseline: string,
  cases: readonly BenchCase[],
  options?: BenchOptions,
) {
  const results = measureInterleaved(cases, options);
  const base = results.find((r) => r.name === baseline);
  if (!base) throw new Error(`baseline ${baseline} is not a case of ${title}`);
  const rows = results.map((r) => [
    r.name,
    Math.round(r.opsPerSecond).toLocaleString('en-US'),
    r.microsPerOp.toFixed(2),
    `${(r.opsPerSecond / base.opsPerSecond).toFixed(2)}×`,
  ]);
  const header = ['case', 'ops/s', 'µs/op', `vs ${baseline}`];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  console.log(`\n### ${title}\n`);
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  return results;
}

export function ratio(results: readonly BenchResult[], a: string, b: string): number {
  const ra = results.find((r) => r.name === a);
  const rb = results.find((r) => r.name === b);
  if (!ra || !rb) throw new Error(`missing ${a} or ${b}`);
  return ra.opsPerSecond / rb.opsPerSecond;
}

export function keepAlive(): unknown {
  return sink;
}
