import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  capabilityDescriptorWireSchema,
  DESCRIPTOR_ERROR_CODES,
  descriptorToWire,
  parseDescriptor,
  REQUIRED_DESCRIPTOR_FIELDS,
} from './descriptor.js';
import { RelayError } from './errors.js';

const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(Number.NaN, Infinity, -Infinity, 0, -1, 0.5, '0', ' 7 ', '1_0', 'x'),
);
const descriptorLike = fc.dictionary(
  fc.constantFrom(...REQUIRED_DESCRIPTOR_FIELDS, 'emoji', 'supported_ops', 'pii_safe', 'extra', '__proto__'),
  fieldValue,
);

function isDescriptorError(error: unknown): boolean {
  return error instanceof RelayError && DESCRIPTOR_ERROR_CODES.has(error.code);
}

function onlyTypedErrors(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    expect(isDescriptorError(error)).toBe(true);
  }
}

describe('parseDescriptor on arbitrary input', () => {
  it('throws nothing but a descriptor RelayError on any text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          descriptorLike.map((d) => JSON.stringify(d)),
        ),
        (text) => onlyTypedErrors(() => parseDescriptor(text)),
      ),
      { numRuns: 400 },
    );
  });

  it('throws nothing but a descriptor RelayError on any value, and the schema agrees', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), descriptorLike), (value) => {
        onlyTypedErrors(() => parseDescriptor(value));
        if (typeof value !== 'string') {
          let ok = true;
          try {
            parseDescriptor(value);
          } catch {
            ok = false;
          }
          expect(capabilityDescriptorWireSchema.safeParse(value).success).toBe(ok);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('is idempotent through descriptorToWire', () => {
    const complete = fc.record(
      Object.fromEntries(REQUIRED_DESCRIPTOR_FIELDS.map((name) => [name, fieldValue])) as Record<
        string,
        typeof fieldValue
      >,
    );
    fc.assert(
      fc.property(complete, (value) => {
        let descriptor: ReturnType<typeof parseDescriptor>;
        try {
          descriptor = parseDescriptor(value);
        } catch (error) {
          expect(isDescriptorError(error)).toBe(true);
          return;
        }
        expect(parseDescriptor(descriptorToWire(descriptor))).toEqual(descriptor);
      }),
      { numRuns: 300 },
    );
  });
});
