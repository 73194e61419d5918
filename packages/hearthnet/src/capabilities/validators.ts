import { z } from 'zod';
import { formatJsonPath } from '../canonical-json/strict-json.js';
import type { CapabilityPayloadPart, SchemaIssue } from '../errors.js';
import { HearthNetLocalError } from '../errors.js';
import type { CapabilityDescriptor } from './descriptor.js';
import { JSON_SCHEMA_KEYWORDS, type JsonSchema, type JsonSchemaType, type JsonValue } from './json-schema.js';

/** The outcome of {@link SchemaValidator.check}. */
export type ValidationResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly SchemaIssue[] };

/**
 * A validator compiled from one capability schema: the JSON Schema it was compiled from, the zod
 * schema, and `parse`/`check`, which return the value with defaults filled in.
 */
export interface SchemaValidator<T = unknown> {
  readonly schema: JsonSchema;
  readonly zod: z.ZodType<T>;
  /** @throws {HearthNetLocalError} `schema_validation` naming every path and rule that failed. */
  parse(value: unknown): T;
  check(value: unknown): ValidationResult<T>;
}

/** The validators of one capability; `response`/`stream` are `null` where the descriptor has no such schema. */
export interface CapabilityValidators<Request = unknown, Response = unknown, Frame = unknown> {
  readonly request: SchemaValidator<Request>;
  readonly response: SchemaValidator<Response> | null;
  readonly stream: SchemaValidator<Frame> | null;
}

const compiled = new WeakMap<object, CapabilityValidators>();

/**
 * The validators of a descriptor, derived from its JSON Schemas by `compileSchema` (compiled
 * once per descriptor object).
 *
 * @throws {HearthNetLocalError} `invalid_schema` when a schema is outside the supported subset.
 * @example
 * ```ts
 * const { request } = validatorsFor(catalogueDescriptor('rag.query'));
 * request.parse({ params: { corpus: 'c' }, input: { query: 'q' } }).input.k; // 5, the default
 * ```
 */
export function validatorsFor(descriptor: CapabilityDescriptor): CapabilityValidators {
  const cached = compiled.get(descriptor);
  if (cached !== undefined) return cached;
  const capability = `${descriptor.name}@${descriptor.version}`;
  const validators: CapabilityValidators = {
    request: validatorOf(descriptor.requestSchema, capability, 'request'),
    response:
      descriptor.responseSchema === null
        ? null
        : validatorOf(descriptor.responseSchema, capability, 'response'),
    stream:
      descriptor.streamSchema === null ? null : validatorOf(descriptor.streamSchema, capability, 'stream'),
  };
  compiled.set(descriptor, validators);
  return validators;
}

function validatorOf(schema: JsonSchema, capability: string, part: CapabilityPayloadPart): SchemaValidator {
  const zod = compileSchema(schema);
  const check = (value: unknown): ValidationResult<unknown> => {
    const result = zod.safeParse(value);
    if (result.success) return { ok: true, value: result.data };
    return {
      ok: false,
      issues: result.error.issues.map((issue) => ({
        path: formatJsonPath(issue.path.filter((segment) => typeof segment !== 'symbol')),
        message: issue.message,
      })),
    };
  };
  return {
    schema,
    zod,
    check,
    parse(value) {
      const result = check(value);
      if (!result.ok) throw schemaValidationError(capability, part, result.issues);
      return result.value;
    },
  };
}

/**
 * The `schema_validation` error of a value that does not match its capability schema (`path`: the first
 * failing rule's). A server answers it, for a request, with `bad_request` (see `asHearthNetError`).
 */
function schemaValidationError(
  capability: string,
  part: CapabilityPayloadPart,
  issues: readonly SchemaIssue[],
): HearthNetLocalError {
  const first = issues[0];
  const summary = first === undefined ? 'invalid' : `${first.path}: ${first.message}`;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new HearthNetLocalError(
    'schema_validation',
    `${capability} ${part} does not match its schema: ${summary}${more}`,
    {
      path: first?.path ?? '$',
      details: { capability, part, issues },
    },
  );
}

const knownKeywords: ReadonlySet<string> = new Set(JSON_SCHEMA_KEYWORDS);
const typeNames: ReadonlySet<string> = new Set<JsonSchemaType>([
  'string',
  'integer',
  'number',
  'boolean',
  'null',
  'array',
  'object',
]);
/** Keywords that may sit next to `const`, `enum` or `anyOf`: annotations only. */
const annotationKeywords: ReadonlySet<string> = new Set(['description', 'default']);

type Literal = string | number | boolean | null;

/**
 * Compiles a {@link JsonSchema} into a zod schema with the same meaning: it accepts exactly the
 * values the JSON Schema accepts, and fills in `default`s of absent properties. Numbers must be
 * finite, integers safe (contract §1.1).
 *
 * @throws {HearthNetLocalError} `invalid_schema` when the schema uses a keyword outside {@link JsonSchema},
 *   or uses one in a way this compiler does not support (an object `const`, `enum` next to `minimum`, …).
 * @example
 * ```ts
 * const k = compileSchema({ type: 'integer', minimum: 1, maximum: 20 });
 * k.safeParse(21).success; // false
 * ```
 */
export function compileSchema(schema: JsonSchema): z.ZodType {
  return compileAt(schema, '#');
}

function compileAt(schema: JsonSchema, at: string): z.ZodType {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw invalidSchema(at, 'a schema must be an object');
  }
  for (const keyword of Object.keys(schema)) {
    if (!knownKeywords.has(keyword)) throw invalidSchema(at, `unsupported keyword "${keyword}"`);
  }
  if (schema.const !== undefined) {
    onlyAnnotationsBeside(schema, 'const', at);
    return z.literal(literalOf(schema.const, `${at}/const`));
  }
  if (schema.enum !== undefined) {
    onlyAnnotationsBeside(schema, 'enum', at);
    if (!Array.isArray(schema.enum) || schema.enum.length === 0) {
      throw invalidSchema(`${at}/enum`, 'enum must be a non-empty array');
    }
    return z.literal(schema.enum.map((value, i) => literalOf(value, `${at}/enum/${i}`)));
  }
  if (schema.anyOf !== undefined) {
    onlyAnnotationsBeside(schema, 'anyOf', at);
    if (!Array.isArray(schema.anyOf) || schema.anyOf.length === 0) {
      throw invalidSchema(`${at}/anyOf`, 'anyOf must be a non-empty array');
    }
    return unionOf(schema.anyOf.map((branch, i) => compileAt(branch, `${at}/anyOf/${i}`)));
  }
  if (schema.type === undefined) return z.json();
  const types = typeof schema.type === 'string' ? [schema.type] : schema.type;
  if (!Array.isArray(types) || types.length === 0 || !types.every((t) => typeNames.has(t))) {
    throw invalidSchema(`${at}/type`, 'type must be a type name or a non-empty array of them');
  }
  return unionOf(types.map((type) => compileType(type, schema, at)));
}

function compileType(type: JsonSchemaType, schema: JsonSchema, at: string): z.ZodType {
  switch (type) {
    case 'string':
      return compileString(schema, at);
    case 'integer':
      return withRange(z.int(), schema, at);
    case 'number':
      return withRange(z.number(), schema, at);
    case 'boolean':
      return z.boolean();
    case 'null':
      return z.null();
    case 'array':
      return compileArray(schema, at);
    case 'object':
      return compileObject(schema, at);
  }
}

function compileString(schema: JsonSchema, at: string): z.ZodType {
  let result = z.string();
  const { minLength, maxLength, pattern } = schema;
  if (minLength !== undefined) {
    const min = count(minLength, `${at}/minLength`);
    result = result.refine((s) => codePointLength(s) >= min, `must be at least ${min} characters long`);
  }
  if (maxLength !== undefined) {
    const max = count(maxLength, `${at}/maxLength`);
    result = result.refine((s) => codePointLength(s) <= max, `must be at most ${max} characters long`);
  }
  if (pattern !== undefined) result = result.regex(regexOf(pattern, `${at}/pattern`));
  return result;
}

function withRange(base: z.ZodNumber, schema: JsonSchema, at: string): z.ZodType {
  let result = base;
  if (schema.minimum !== undefined) result = result.min(finite(schema.minimum, `${at}/minimum`));
  if (schema.maximum !== undefined) result = result.max(finite(schema.maximum, `${at}/maximum`));
  return result;
}

function compileArray(schema: JsonSchema, at: string): z.ZodType {
  let result = z.array(schema.items === undefined ? z.json() : compileAt(schema.items, `${at}/items`));
  if (schema.minItems !== undefined) result = result.min(count(schema.minItems, `${at}/minItems`));
  if (schema.maxItems !== undefined) result = result.max(count(schema.maxItems, `${at}/maxItems`));
  if (schema.contains === undefined) return result;
  const contains = compileAt(schema.contains, `${at}/contains`);
  return result.refine(
    (items) => items.some((item) => contains.safeParse(item).success),
    'must contain at least one item matching "contains"',
  );
}

function compileObject(schema: JsonSchema, at: string): z.ZodType {
  const required = schema.required ?? [];
  if (!Array.isArray(required) || !required.every((name) => typeof name === 'string')) {
    throw invalidSchema(`${at}/required`, 'required must be an array of property names');
  }
  const properties = schema.properties ?? {};
  const shape: Record<string, z.ZodType> = {};
  for (const [name, property] of Object.entries(properties)) {
    const compiled = compileAt(property, `${at}/properties/${name}`);
    if (required.includes(name)) shape[name] = compiled;
    else if (property.default !== undefined) {
      const value = property.default;
      shape[name] = compiled.default(() => structuredClone(value) as never);
    } else shape[name] = compiled.optional();
  }
  for (const name of required) {
    if (!(name in shape)) shape[name] = z.json();
  }
  const extra = schema.additionalProperties;
  if (extra === false) return z.strictObject(shape);
  if (extra === undefined || extra === true) return z.looseObject(shape);
  return z.object(shape).catchall(compileAt(extra, `${at}/additionalProperties`));
}

function unionOf(options: z.ZodType[]): z.ZodType {
  const [first, second, ...rest] = options;
  if (first === undefined) throw invalidSchema('#', 'empty union');
  return second === undefined ? first : z.union([first, second, ...rest]);
}

function onlyAnnotationsBeside(schema: JsonSchema, keyword: string, at: string): void {
  for (const other of Object.keys(schema)) {
    if (other !== keyword && !annotationKeywords.has(other)) {
      throw invalidSchema(at, `"${other}" next to "${keyword}" is not supported`);
    }
  }
}

function literalOf(value: JsonValue, at: string): Literal {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw invalidSchema(at, 'only strings, finite numbers, booleans and null are supported here');
}

function count(value: unknown, at: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) {
    throw invalidSchema(at, 'must be a non-negative integer');
  }
  return value as number;
}

function finite(value: unknown, at: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidSchema(at, 'must be a number');
  return value;
}

function regexOf(pattern: unknown, at: string): RegExp {
  if (typeof pattern !== 'string') throw invalidSchema(at, 'must be a string');
  try {
    return new RegExp(pattern, 'u');
  } catch (cause) {
    throw invalidSchema(at, `not a valid regular expression: ${pattern}`, { cause });
  }
}

/** Length in Unicode code points, as JSON Schema (and Python's `len`) counts it. */
function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length += 1;
  return length;
}

/** The `invalid_schema` error at a schema location (`path`: a JSON pointer fragment such as `#/properties/k`). */
function invalidSchema(pointer: string, reason: string, options?: ErrorOptions): HearthNetLocalError {
  return new HearthNetLocalError('invalid_schema', `invalid schema at ${pointer}: ${reason}`, {
    ...options,
    path: pointer,
  });
}
