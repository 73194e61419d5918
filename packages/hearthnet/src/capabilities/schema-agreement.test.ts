// Proves that the zod validators compiled from the catalogue's JSON Schemas accept exactly what the
// JSON Schemas say: an independent, deliberately plain interpreter of the same keywords is the oracle,
// and fast-check generates conforming values from each schema and mutates them into (mostly) invalid ones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAPABILITY_CATALOGUE } from './catalogue/catalogue.js';
import type { JsonSchema } from './json-schema.js';
import { compileSchema } from './validators.js';

/** JSON Schema semantics for the supported keywords, written independently of compile-schema.ts. */
function matches(schema: JsonSchema, value: unknown): boolean {
  if ('const' in schema) return deepEqual(value, schema.const);
  if (schema.enum) return schema.enum.some((option) => deepEqual(value, option));
  if (schema.anyOf) return schema.anyOf.some((branch) => matches(branch, value));
  if (schema.type === undefined) return true;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.some((type) => matchesType(type, schema, value));
}

function matchesType(type: string, schema: JsonSchema, value: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return false;
      if (type === 'integer' && !Number.isSafeInteger(value)) return false;
      return (schema.minimum ?? -Infinity) <= value && value <= (schema.maximum ?? Infinity);
    }
    case 'string': {
      if (typeof value !== 'string') return false;
      const length = Array.from(value).length;
      if (length < (schema.minLength ?? 0) || length > (schema.maxLength ?? Infinity)) return false;
      return schema.pattern === undefined || new RegExp(schema.pattern, 'u').test(value);
    }
    case 'array': {
      if (!Array.isArray(value)) return false;
      if (value.length < (schema.minItems ?? 0) || value.length > (schema.maxItems ?? Infinity)) return false;
      if (schema.items && !value.every((item) => matches(schema.items as JsonSchema, item))) return false;
      return (
        schema.contains === undefined || value.some((item) => matches(schema.contains as JsonSchema, item))
      );
    }
    case 'object': {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
      const record = value as Record<string, unknown>;
      const properties = schema.properties ?? {};
      if (!(schema.required ?? []).every((name) => Object.hasOwn(record, name))) return false;
      return Object.entries(record).every(([key, item]) => {
        if (Object.hasOwn(properties, key)) return matches(properties[key] as JsonSchema, item);
        const extra = schema.additionalProperties;
        return extra === undefined || extra === true ? true : extra === false ? false : matches(extra, item);
      });
    }
    default:
      throw new Error(`unknown type ${type}`);
  }
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** One code point per unit, astral ones and a lone surrogate included, so lengths are counted in code points. */
const CODE_POINTS = fc.constantFrom('a', 'Z', ' ', '.', '\u0000', 'é', '世', '😀', '𝄞', '\ud800');

/** Values that conform to `schema`. */
function conforming(schema: JsonSchema): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(conforming));
  if (schema.type === undefined) return fc.jsonValue({ maxDepth: 2 });
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return fc.oneof(...types.map((type) => conformingOfType(type, schema)));
}

function conformingOfType(type: string, schema: JsonSchema): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({
        min: schema.minimum ?? Number.MIN_SAFE_INTEGER,
        max: schema.maximum ?? Number.MAX_SAFE_INTEGER,
      });
    case 'number':
      return fc.double({
        noNaN: true,
        noDefaultInfinity: true,
        ...(schema.minimum === undefined ? {} : { min: schema.minimum }),
        ...(schema.maximum === undefined ? {} : { max: schema.maximum }),
      });
    case 'string':
      if (schema.pattern !== undefined) return fc.stringMatching(new RegExp(`^(?:${schema.pattern})$`, 'u'));
      return fc.string({
        unit: CODE_POINTS,
        minLength: schema.minLength ?? 0,
        maxLength: Math.min(schema.maxLength ?? 12, 12),
      });
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const items = fc.array(schema.items ? conforming(schema.items) : fc.jsonValue({ maxDepth: 2 }), {
        minLength,
        maxLength: Math.min(schema.maxItems ?? minLength + 4, minLength + 4),
      });
      const contains = schema.contains;
      return contains === undefined
        ? items
        : items.filter((list) => list.some((item) => matches(contains, item)));
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const known = fc.record(
        Object.fromEntries(
          Object.entries(properties).map(([name, property]) => [name, conforming(property)]),
        ),
        { requiredKeys: [...(schema.required ?? [])] },
      );
      const extra = schema.additionalProperties;
      if (extra === false) return known;
      const extraValue =
        extra === undefined || extra === true ? fc.jsonValue({ maxDepth: 2 }) : conforming(extra);
      const extraKeys = fc.dictionary(
        fc.string({ minLength: 1, maxLength: 6 }).filter((key) => !Object.hasOwn(properties, key)),
        extraValue,
        { maxKeys: 2 },
      );
      return fc.tuple(known, extraKeys).map(([a, b]) => ({ ...b, ...a }));
    }
    default:
      throw new Error(`unknown type ${type}`);
  }
}

/** A copy of `value` with one place changed: replaced by random JSON, deleted, or given an extra key. */
function mutated(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc
    .tuple(valid, fc.jsonValue({ maxDepth: 2 }), fc.nat(), fc.constantFrom('replace', 'delete', 'add'))
    .map(([value, replacement, pick, how]) => {
      const copy = structuredClone(value);
      const places = containers(copy);
      const place = places[pick % places.length];
      if (place === undefined) return replacement;
      const [holder, key] = place;
      if (how === 'add' && !Array.isArray(holder))
        (holder as Record<string, unknown>)[`x_${key}`] = replacement;
      else if (how === 'delete' && !Array.isArray(holder)) delete (holder as Record<string, unknown>)[key];
      else (holder as Record<string, unknown>)[key] = replacement;
      return copy;
    });
}

function containers(value: unknown, out: [object, string][] = []): [object, string][] {
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      out.push([value, key]);
      containers(item, out);
    }
  }
  return out;
}

const parts = CAPABILITY_CATALOGUE.flatMap((descriptor) =>
  (
    [
      ['request', descriptor.requestSchema],
      ['response', descriptor.responseSchema],
      ['stream', descriptor.streamSchema],
    ] as const
  ).flatMap(([part, schema]) =>
    schema === null
      ? []
      : [{ label: `${descriptor.name}@${descriptor.version} ${part}`, schema: schema as JsonSchema }],
  ),
);

describe('zod validators agree with their JSON Schemas', () => {
  for (const { label, schema } of parts) {
    const zod = compileSchema(schema);
    it(`${label}: accepts values generated from the schema`, () => {
      fc.assert(
        fc.property(conforming(schema), (value) => {
          expect(matches(schema, value)).toBe(true);
          expect(zod.safeParse(value).success).toBe(true);
        }),
        { numRuns: 20 },
      );
    });
    it(`${label}: gives the oracle's verdict on mutated values`, () => {
      fc.assert(
        fc.property(mutated(conforming(schema)), (value) => {
          expect(zod.safeParse(value).success).toBe(matches(schema, value));
        }),
        { numRuns: 40 },
      );
    });
  }

  it('the mutations produce invalid values for every schema, so the comparison is not vacuous', () => {
    for (const { label, schema } of parts) {
      const values = fc.sample(mutated(conforming(schema)), { numRuns: 30, seed: 7 });
      expect(
        values.some((value) => !matches(schema, value)),
        label,
      ).toBe(true);
    }
  });
});
