// The strict JSON reader of signed HearthNet bodies (issue #17 item 3: repeated keys) against plain
// `JSON.parse` of the same canonical text, for the 300 B / 5 KB / 100 KB payloads. The reader is internal
// to @agentwire/hearthnet (not an export), so it is read from the package source. Rows:
// - `JSON.parse`: what every reader did before;
// - `parseStrictJson`: JSON.parse + one indexOf pass over the text counting keys + one walk counting the
//   parsed objects' keys — the cost every signed body now pays;
// - refusal: the same text with one key repeated at its end, so the exact token-by-token pass runs over
//   all of it to name the key — what a refused body costs the node.
import { canonicalJsonString } from '@agentwire/hearthnet';
import { parseStrictJson } from '../packages/hearthnet/src/canonical-json/strict-json.js';
import { type BenchOptions, measureInterleaved } from './harness.js';
import { payloads } from './payloads.js';

export function benchStrictJson(options?: BenchOptions): string[] {
  const rows: string[][] = [];
  const ratios: string[] = [];
  for (const { label, value } of payloads) {
    const text = canonicalJsonString(value);
    // `{"zz":0,…,"zz":1}`: canonical order puts the repeated key last, after everything else.
    const repeated = `${text.slice(0, -1)},"zz":0,"zz":1}`;
    const check = parseStrictJson(repeated);
    if (parseStrictJson(text).ok !== true || check.ok || check.problem !== 'duplicate_key') {
      throw new Error(`benchmark self-check failed for ${label}`);
    }
    const [parse, strict, refusal] = measureInterleaved(
      [
        { name: 'JSON.parse', fn: () => JSON.parse(text) },
        { name: 'parseStrictJson', fn: () => parseStrictJson(text) },
        { name: 'parseStrictJson, refused', fn: () => parseStrictJson(repeated) },
      ],
      options,
    );
    if (parse === undefined || strict === undefined || refusal === undefined) throw new Error('no result');
    const overhead = strict.microsPerOp / parse.microsPerOp;
    rows.push([
      `${label} (${text.length} chars)`,
      parse.microsPerOp.toFixed(2),
      strict.microsPerOp.toFixed(2),
      `${overhead.toFixed(2)}×`,
      `+${(strict.microsPerOp - parse.microsPerOp).toFixed(2)}`,
      refusal.microsPerOp.toFixed(2),
    ]);
    ratios.push(
      `${label} ${overhead.toFixed(2)}× (+${(strict.microsPerOp - parse.microsPerOp).toFixed(1)} µs)`,
    );
  }
  const header = [
    'payload',
    'JSON.parse µs',
    'parseStrictJson µs',
    'vs JSON.parse',
    'µs added',
    'refused µs',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  console.log('\n### HearthNet strict JSON reader (repeated keys, inexact numbers) vs JSON.parse\n');
  console.log(line(header));
  console.log(`|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  return [`strict JSON read of a signed body vs JSON.parse: ${ratios.join(', ')}`];
}
