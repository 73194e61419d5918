/** The contract version this SDK implements. */
export const CONTRACT_VERSION = 1;

/** The nine fields without a default, in the order the gateway's dataclass declares them. */
export const REQUIRED_DESCRIPTOR_FIELDS = [
  'contract_version',
  'platform',
  'label',
  'max_message_length',
  'supports_draft_streaming',
  'supports_edit',
  'supports_threads',
  'markdown_dialect',
  'len_unit',
] as const;

/** The optional fields and their defaults, in declaration order; the last two exist on newer gateways only. */
export const OPTIONAL_DESCRIPTOR_DEFAULTS = {
  emoji: '\u{1F50C}',
  platform_hint: '',
  pii_safe: false,
  supports_context: false,
  supported_ops: [] as readonly string[],
  supports_inchannel_continuable: false,
  supports_block_formatting: false,
} as const;

/** Every descriptor field, in declaration order: the key order of `descriptorToWire`. */
export const DESCRIPTOR_FIELDS = [
  ...REQUIRED_DESCRIPTOR_FIELDS,
  ...(Object.keys(OPTIONAL_DESCRIPTOR_DEFAULTS) as (keyof typeof OPTIONAL_DESCRIPTOR_DEFAULTS)[]),
] as const;

/** The value the gateway substitutes for a `max_message_length` that is not a positive integer. */
export const DEFAULT_MAX_MESSAGE_LENGTH = 4096;

/** The ops a descriptor with an empty `supported_ops` supports. */
export const LEGACY_OPS: ReadonlySet<string> = new Set(['send', 'edit', 'typing', 'follow_up']);
