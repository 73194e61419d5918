/** A JSON value as a schema may carry it (`const`, `enum`, `default`). */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** The `type` names of JSON Schema. `integer` is a number with no fractional part. */
export type JsonSchemaType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'array' | 'object';

/**
 * The subset of JSON Schema (draft 2020-12 semantics) the capability catalogue is written in. Schemas
 * are plain JSON data, hashed as they are (contract §11), so every other language sees the same bytes;
 * {@link compileSchema} turns one into a zod validator and {@link FromSchema} into a TypeScript type.
 *
 * Semantics of the keywords that are easy to get wrong: an object without `additionalProperties`
 * accepts unknown keys (as in JSON Schema); `minLength`/`maxLength` count Unicode code points, not
 * UTF-16 units; `pattern` is an unanchored ECMA-262 regular expression with the `u` flag; `default`
 * is filled in by the validators when the property is absent; `contains` needs at least one matching
 * item.
 */
export interface JsonSchema {
  readonly type?: JsonSchemaType | readonly JsonSchemaType[];
  readonly description?: string;
  readonly default?: JsonValue;
  readonly const?: JsonValue;
  readonly enum?: readonly JsonValue[];
  readonly anyOf?: readonly JsonSchema[];
  readonly properties?: { readonly [name: string]: JsonSchema };
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean | JsonSchema;
  readonly items?: JsonSchema;
  readonly contains?: JsonSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
}

/** Every keyword of {@link JsonSchema}; a schema using any other keyword is refused by {@link compileSchema}. */
export const JSON_SCHEMA_KEYWORDS: readonly (keyof JsonSchema)[] = [
  'type',
  'description',
  'default',
  'const',
  'enum',
  'anyOf',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'contains',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
];

/**
 * Whether {@link FromSchema} describes a value as sent (`'input'`: properties with a `default` may be
 * absent) or as a validator returns it (`'output'`: defaults are filled in).
 */
export type SchemaMode = 'input' | 'output';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type RequiredKeys<S, M extends SchemaMode> = S extends { readonly properties: infer P }
  ? {
      [K in keyof P]: K extends (S extends { readonly required: readonly (infer R)[] } ? R : never)
        ? K
        : M extends 'output'
          ? P[K] extends { readonly default: unknown }
            ? K
            : never
          : never;
    }[keyof P]
  : never;

type ObjectOf<S, M extends SchemaMode> = S extends { readonly properties: infer P }
  ? Simplify<
      { -readonly [K in keyof P as K extends RequiredKeys<S, M> ? K : never]: FromSchema<P[K], M> } & {
        -readonly [K in keyof P as K extends RequiredKeys<S, M> ? never : K]?: FromSchema<P[K], M>;
      }
    >
  : S extends { readonly additionalProperties: false }
    ? Record<string, never>
    : S extends { readonly additionalProperties: infer A extends JsonSchema }
      ? Record<string, FromSchema<A, M>>
      : Record<string, unknown>;

type OfType<T, S, M extends SchemaMode> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { readonly items: infer I }
            ? FromSchema<I, M>[]
            : unknown[]
          : T extends 'object'
            ? ObjectOf<S, M>
            : never;

type Mutable<T> = T extends readonly (infer E)[]
  ? Mutable<E>[]
  : T extends object
    ? { -readonly [K in keyof T]: Mutable<T[K]> }
    : T;

/**
 * The TypeScript type of the values a schema (written `as const`) accepts, for the keywords of
 * {@link JsonSchema}.
 *
 * @example
 * ```ts
 * const point = { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } as const;
 * type Point = FromSchema<typeof point>; // { x: number }
 * ```
 */
export type FromSchema<S, M extends SchemaMode = 'input'> = S extends { readonly const: infer C }
  ? Mutable<C>
  : S extends { readonly enum: readonly (infer E)[] }
    ? Mutable<E>
    : S extends { readonly anyOf: readonly (infer A)[] }
      ? A extends unknown
        ? FromSchema<A, M>
        : never
      : S extends { readonly type: readonly (infer T)[] }
        ? T extends unknown
          ? OfType<T, S, M>
          : never
        : S extends { readonly type: infer T }
          ? OfType<T, S, M>
          : unknown;
