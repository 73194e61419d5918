import { formatValue } from '../../format-value.js';

type FieldKind = 'integer' | 'string' | 'boolean' | 'length-unit' | 'string-list';

/** The JSON type of every descriptor field (relay contract §3.1); optional ones may be absent. */
const DESCRIPTOR_FIELD_KINDS: readonly (readonly [name: string, kind: FieldKind, required: boolean])[] = [
  ['contract_version', 'integer', true],
  ['platform', 'string', true],
  ['label', 'string', true],
  ['max_message_length', 'integer', true],
  ['supports_draft_streaming', 'boolean', true],
  ['supports_edit', 'boolean', true],
  ['supports_threads', 'boolean', true],
  ['markdown_dialect', 'string', true],
  ['len_unit', 'length-unit', true],
  ['emoji', 'string', false],
  ['platform_hint', 'string', false],
  ['pii_safe', 'boolean', false],
  ['supports_context', 'boolean', false],
  ['supported_ops', 'string-list', false],
];

const KIND_TEXT: Readonly<Record<FieldKind, string>> = {
  integer: 'an integer',
  string: 'a string',
  boolean: 'a boolean',
  'length-unit': '"chars" or "utf16"',
  'string-list': 'a list of strings',
};

/**
 * The type errors of a descriptor as the connector sent it: the gateway's `from_json` checks no types
 * (a string `max_message_length` slips through and breaks later), so the wire object is checked here.
 * Returns one message per wrong field; empty when every field has its type.
 */
export function descriptorTypeErrors(descriptor: unknown): string[] {
  if (typeof descriptor !== 'object' || descriptor === null || Array.isArray(descriptor)) {
    return [`descriptor must be an object, got ${formatValue(descriptor)}`];
  }
  const fields = descriptor as Readonly<Record<string, unknown>>;
  const errors: string[] = [];
  for (const [name, kind, required] of DESCRIPTOR_FIELD_KINDS) {
    if (!Object.hasOwn(fields, name)) {
      if (required) errors.push(`descriptor.${name} is missing`);
      continue;
    }
    const value = fields[name];
    if (!hasKind(value, kind)) {
      errors.push(`descriptor.${name} must be ${KIND_TEXT[kind]}, got ${formatValue(value)}`);
    }
  }
  return errors;
}

function hasKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'integer':
      return Number.isInteger(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'length-unit':
      return value === 'chars' || value === 'utf16';
    case 'string-list':
      return Array.isArray(value) && value.every((op) => typeof op === 'string');
  }
}
