import { pythonJsonDumps } from '../python/json-dumps.js';
import { DESCRIPTOR_FIELDS, OPTIONAL_DESCRIPTOR_DEFAULTS } from './fields.js';
import type { CapabilityDescriptor } from './schema.js';

/** The two optional fields only newer gateways declare (a baseline gateway drops them when parsing). */
const NEWER_FIELDS: ReadonlySet<string> = new Set([
  'supports_inchannel_continuable',
  'supports_block_formatting',
]);

/** Options of {@link descriptorToJson}. */
export interface DescriptorToJsonOptions {
  /**
   * Also write the fields only newer gateways declare (`supports_inchannel_continuable`,
   * `supports_block_formatting`). Default `false`: the baseline gateway's fourteen fields.
   */
  readonly newerFields?: boolean;
}

/**
 * The descriptor as the gateway's `CapabilityDescriptor.to_json()` writes it:
 * `json.dumps(asdict(self), sort_keys=True, ensure_ascii=False)` — every field of the dataclass, keys
 * sorted, separators `", "` and `": "`, non-ASCII characters as they are, values exactly as parsed
 * (`max_message_length: "1200"` stays a string, `emoji: null` stays `null`).
 *
 * @throws {RelayError} `unencodable_frame`: a field holding something JSON cannot carry.
 * @example
 * descriptorToJson(parseDescriptor(text));
 * // '{"contract_version": 1, "emoji": "🔌", "label": "Discord", …}'
 */
export function descriptorToJson(
  descriptor: CapabilityDescriptor,
  options: DescriptorToJsonOptions = {},
): string {
  const fields: Record<string, unknown> = {};
  for (const name of DESCRIPTOR_FIELDS) {
    if (NEWER_FIELDS.has(name) && options.newerFields !== true) continue;
    const value = (descriptor as unknown as Record<string, unknown>)[name];
    fields[name] =
      value === undefined && Object.hasOwn(OPTIONAL_DESCRIPTOR_DEFAULTS, name)
        ? OPTIONAL_DESCRIPTOR_DEFAULTS[name as keyof typeof OPTIONAL_DESCRIPTOR_DEFAULTS]
        : value;
  }
  return pythonJsonDumps(fields, { ensureAscii: false, sortKeys: true });
}
