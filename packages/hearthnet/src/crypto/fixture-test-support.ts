// Test support only (imported by *.test.ts, never by the package entries): reads the shared
// HearthNet fixtures of @agentwire/conformance and decodes their tagged values.
import { readFileSync } from 'node:fs';
import { hexDecode } from '../encoding.js';

/** The common shape of a fixture file. */
export interface FixtureFile<Case> {
  readonly description: string;
  readonly source: string;
  readonly cases: readonly Case[];
}

const fixtureDirectory = new URL('../../../conformance/fixtures/hearthnet/', import.meta.url);

/** Parses `packages/conformance/fixtures/hearthnet/<name>`. */
export function loadHearthnetFixture<Case>(name: string): FixtureFile<Case> {
  return JSON.parse(readFileSync(new URL(name, fixtureDirectory), 'utf8')) as FixtureFile<Case>;
}

const floats: Readonly<Record<string, number>> = {
  NaN: Number.NaN,
  Infinity: Infinity,
  '-Infinity': -Infinity,
  '-0': -0,
};

/**
 * Replaces the fixture wrappers at any depth: `{"$bytes": hex}` → `Uint8Array`, `{"$bigint": digits}`
 * → `bigint`, `{"$float": name}` → that number.
 */
export function decodeTagged(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeTagged);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value);
  const [first] = entries;
  if (entries.length === 1 && first !== undefined && typeof first[1] === 'string') {
    const [tag, payload] = first;
    if (tag === '$bytes') return hexDecode(payload);
    if (tag === '$bigint') return BigInt(payload);
    if (tag === '$float' && payload in floats) return floats[payload];
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of entries) {
    Object.defineProperty(out, key, {
      value: decodeTagged(item),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
