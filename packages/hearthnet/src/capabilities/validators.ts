import type { z } from 'zod';
import { formatJsonPath } from '../canonical-json/json-path.js';
import { HearthNetLocalError } from '../errors.js';
import { compileSchema } from './compile-schema.js';
import type { CapabilityDescriptor } from './descriptor.js';
import type { JsonSchema } from './json-schema.js';

/** Which part of a capability call a validator checks. */
export type CapabilityPayloadPart = 'request' | 'response' | 'stream';

/** One rule a value broke, at a JSON path such as `$.input.messages[0].role`. */
export interface SchemaIssue {
  readonly path: string;
  readonly message: string;
}

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
 * The validators of a descriptor, derived from its JSON Schemas by {@link compileSchema} (compiled
 * once per descriptor object).
 *
 * @throws {HearthNetLocalError} `invalid_schema` when a schema is outside the supported subset.
 * @example
 * ```ts
 * const { request } = validatorsFor(RAG_QUERY);
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
