// canonicalJson against RFC 8785 `canonicalize` and `safe-stable-stringify`, with JSON.stringify as
// the (non-canonical) floor. Goal from the foundation issue: canonicalJson ≥ 2× canonicalize.
import { canonicalJson, canonicalJsonString } from '@agentwire/hearthnet';
import canonicalize from 'canonicalize';
import { configure } from 'safe-stable-stringify';
import { type BenchOptions, ratio, runGroup } from './harness.js';
import { payloads } from './payloads.js';

const stableStringify = configure({ deterministic: true });
const encoder = new TextEncoder();

export function benchCanonicalJson(options?: BenchOptions) {
  const goals: string[] = [];
  for (const { label, value } of payloads) {
    const bytes = canonicalJson(value).length;
    const results = runGroup(
      `canonical JSON — ${label} (${bytes} bytes canonical)`,
      'canonicalize@5 (RFC 8785)',
      [
        { name: 'JSON.stringify (floor, not canonical)', fn: () => encoder.encode(JSON.stringify(value)) },
        { name: 'canonicalize@5 (RFC 8785)', fn: () => encoder.encode(canonicalize(value) ?? '') },
        { name: 'safe-stable-stringify@3', fn: () => encoder.encode(stableStringify(value) ?? '') },
        { name: 'agentwire canonicalJsonString', fn: () => canonicalJsonString(value) },
        { name: 'agentwire canonicalJson (bytes)', fn: () => canonicalJson(value) },
      ],
      options,
    );
    const r = ratio(results, 'agentwire canonicalJson (bytes)', 'canonicalize@5 (RFC 8785)');
    goals.push(
      `canonicalJson vs canonicalize, ${label}: ${r.toFixed(2)}× (goal ≥ 2×) ${r >= 2 ? 'met' : 'NOT met'}`,
    );
  }
  return goals;
}
