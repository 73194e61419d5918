import * as z from 'zod/mini';
import { RelayError } from '../errors.js';
import { type JsonValue, jsonValueSchema } from '../json/index.js';
import { DESCRIPTOR_ERROR_CODES } from './errors.js';
import { parseDescriptorValue } from './parse.js';

/**
 * A capability descriptor as the gateway holds it after `CapabilityDescriptor.from_json`.
 *
 * The gateway normalises only `max_message_length`, `supported_ops` and the defaults of the optional
 * fields; every other value is kept exactly as sent (`supports_edit: "false"` stays a string). The
 * fields therefore carry {@link JsonValue}; a descriptor built with `createDescriptor` narrows them
 * to {@link StrictCapabilityDescriptor}.
 */
export interface CapabilityDescriptor {
  readonly contract_version: JsonValue;
  readonly platform: JsonValue;
  readonly label: JsonValue;
  /** Never ≤ 0 after parsing; a non-number is kept when Python's `int()` reads it as positive. */
  readonly max_message_length: JsonValue;
  readonly supports_draft_streaming: JsonValue;
  readonly supports_edit: JsonValue;
  readonly supports_threads: JsonValue;
  readonly markdown_dialect: JsonValue;
  readonly len_unit: JsonValue;
  readonly emoji: JsonValue;
  readonly platform_hint: JsonValue;
  readonly pii_safe: JsonValue;
  readonly supports_context: JsonValue;
  readonly supported_ops: readonly string[];
  /** Newer gateways only; default `false`. */
  readonly supports_inchannel_continuable: JsonValue;
  /** Newer gateways only; default `false`. When true the gateway may add `metadata.format_hints`. */
  readonly supports_block_formatting: JsonValue;
}

/** The length unit a descriptor advertises: Python `len` (code points) or UTF-16 code units. */
export type LengthUnit = 'chars' | 'utf16';

/** A descriptor whose every field has the JSON type the contract names: what a connector should send. */
export interface StrictCapabilityDescriptor extends CapabilityDescriptor {
  readonly contract_version: number;
  readonly platform: string;
  readonly label: string;
  readonly max_message_length: number;
  readonly supports_draft_streaming: boolean;
  readonly supports_edit: boolean;
  readonly supports_threads: boolean;
  readonly markdown_dialect: string;
  readonly len_unit: LengthUnit;
  readonly emoji: string;
  readonly platform_hint: string;
  readonly pii_safe: boolean;
  readonly supports_context: boolean;
  readonly supported_ops: readonly string[];
  readonly supports_inchannel_continuable: boolean;
  readonly supports_block_formatting: boolean;
}

/**
 * The `descriptor` object of a `descriptor` frame as the gateway receives it: any JSON object. Unknown
 * keys and wrongly typed values are allowed here; {@link CapabilityDescriptor} is what parsing makes
 * of it.
 */
export const descriptorWireObjectSchema: z.ZodMiniType<{ readonly [key: string]: JsonValue }> = z.record(
  z.string(),
  jsonValueSchema,
);

/**
 * Zod schema of the `descriptor` object of a `descriptor` frame: accepts exactly what the gateway's
 * `from_json` accepts and outputs the parsed {@link CapabilityDescriptor} (see `parseDescriptorValue`;
 * a string input is a JSON string, not text to parse).
 * A refusal is reported as one issue whose `params.code` is the `RelayError` code.
 */
export const capabilityDescriptorWireSchema: z.ZodMiniType<CapabilityDescriptor, unknown> = z.pipe(
  z.unknown(),
  z.transform((input: unknown, ctx) => {
    try {
      return parseDescriptorValue(input);
    } catch (error) {
      if (!(error instanceof RelayError && DESCRIPTOR_ERROR_CODES.has(error.code))) throw error;
      ctx.issues.push({
        code: 'custom',
        message: error.message,
        input,
        path: error.path === '' ? [] : [error.path],
        params: { code: error.code },
      });
      return z.NEVER;
    }
  }),
);
