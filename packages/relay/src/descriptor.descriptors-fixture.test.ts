import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  capabilityDescriptorWireSchema,
  DESCRIPTOR_ERROR_CODES,
  descriptorMessageLength,
  descriptorSupportsCodeBlocks,
  descriptorSupportsOp,
  descriptorToJson,
  descriptorToWire,
  parseDescriptor,
} from './descriptor.js';
import { RelayError } from './errors.js';

interface DescriptorCase {
  readonly id: string;
  readonly tags: readonly string[];
  readonly input: string;
  readonly expected?: Record<string, unknown>;
  readonly supports_op?: Record<string, boolean>;
  readonly error?: string;
  readonly missing?: readonly string[];
  readonly to_json?: string;
  readonly message_lengths?: readonly number[];
  readonly supports_code_blocks?: boolean;
}

const fixture = JSON.parse(
  readFileSync(new URL('../../conformance/fixtures/relay/descriptors.json', import.meta.url), 'utf8'),
) as { readonly cases: readonly DescriptorCase[]; readonly sample_texts: readonly string[] };

const floats: Record<string, number> = { NaN: Number.NaN, Infinity: Infinity, '-Infinity': -Infinity };
function decodeFloats(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeFloats);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  if (entries.length === 1 && entries[0]?.[0] === '$float') return floats[entries[0][1] as string];
  return Object.fromEntries(entries.map(([k, v]) => [k, decodeFloats(v)]));
}

/** Cases whose `max_message_length` is an integral float literal (see the to_json check). */
const INTEGRAL_FLOAT_CASES: ReadonlySet<string> = new Set(['mml-exponent-kept']);

function errorOf(run: () => unknown): RelayError {
  try {
    run();
  } catch (error) {
    if (error instanceof RelayError && DESCRIPTOR_ERROR_CODES.has(error.code)) return error;
    throw error;
  }
  throw new Error('expected a descriptor RelayError');
}

describe('fixtures/relay/descriptors.json', () => {
  it('covers valid, defaulted, normalised, malformed and missing-field cases', () => {
    const tags = new Set(fixture.cases.flatMap((c) => c.tags));
    for (const tag of ['valid', 'defaults', 'max_message_length', 'supported_ops', 'malformed', 'missing']) {
      expect(tags).toContain(tag);
    }
    expect(fixture.cases.length).toBeGreaterThanOrEqual(40);
  });

  for (const c of fixture.cases) {
    it(c.id, () => {
      if (c.error !== undefined) {
        const error = errorOf(() => parseDescriptor(c.input));
        expect(error.code).toBe(c.error);
        if (c.missing !== undefined) {
          expect(error).toMatchObject({ name: 'RelayError', code: 'descriptor_missing_fields' });
          expect(error.details?.missing).toEqual(c.missing);
        }
        const decoded = jsonOrUndefined(c.input);
        if (decoded !== undefined)
          expect(capabilityDescriptorWireSchema.safeParse(decoded).success).toBe(false);
        return;
      }
      const descriptor = parseDescriptor(c.input);
      expect(descriptor).toEqual(decodeFloats(c.expected));
      expect(Object.keys(descriptor)).toEqual(Object.keys(c.expected ?? {}));
      for (const [op, supported] of Object.entries(c.supports_op ?? {})) {
        expect(descriptorSupportsOp(descriptor, op), op).toBe(supported);
      }
      expect(parseDescriptor(descriptorToWire(descriptor))).toEqual(descriptor);
      // JavaScript has one number type: an integral float the gateway keeps (`2e3` → 2000.0) is written
      // as an int. The one known difference from to_json(), documented in docs/relay.md.
      const toJson = INTEGRAL_FLOAT_CASES.has(c.id)
        ? c.to_json?.replace(/(\d)\.0(?=[,}])/g, '$1')
        : c.to_json;
      expect(descriptorToJson(descriptor)).toBe(toJson);
      expect(fixture.sample_texts.map((text) => descriptorMessageLength(descriptor, text))).toEqual(
        c.message_lengths,
      );
      expect(descriptorSupportsCodeBlocks(descriptor)).toBe(c.supports_code_blocks);
    });
  }
});

/** The case's text decoded by JavaScript's JSON.parse, or undefined where it refuses it. */
function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
