import { describe, expect, it } from 'vitest';
import {
  capabilityDescriptorWireSchema,
  DESCRIPTOR_ERROR_CODES,
  descriptorSupportsOp,
  descriptorToWire,
  parseDescriptor,
  parseDescriptorValue,
} from './descriptor.js';
import { RelayError } from './errors.js';

const base = {
  contract_version: 1,
  platform: 'discord',
  label: 'Discord',
  max_message_length: 2000,
  supports_draft_streaming: false,
  supports_edit: true,
  supports_threads: true,
  markdown_dialect: 'discord',
  len_unit: 'chars',
};

describe('parseDescriptor', () => {
  it('reads text and objects alike and fills defaults', () => {
    const fromText = parseDescriptor(JSON.stringify(base));
    expect(parseDescriptor(base)).toEqual(fromText);
    expect(fromText).toMatchObject({
      emoji: '🔌',
      platform_hint: '',
      pii_safe: false,
      supports_context: false,
      supported_ops: [],
      supports_inchannel_continuable: false,
      supports_block_formatting: false,
    });
  });

  it('drops unknown keys, including __proto__', () => {
    const parsed = parseDescriptor(`{"__proto__": {"x": 1}, ${JSON.stringify(base).slice(1)}`);
    expect(Object.keys(parsed)).not.toContain('__proto__');
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
  });

  it('treats undefined properties as absent and copies the input', () => {
    const input = { ...base, emoji: undefined, supported_ops: ['send'] };
    const parsed = parseDescriptor(input);
    expect(parsed.emoji).toBe('🔌');
    input.supported_ops.push('react');
    expect(parsed.supported_ops).toEqual(['send']);
  });

  it('names every missing field in declaration order', () => {
    const { label: _label, len_unit: _lenUnit, ...rest } = base;
    const error = catchError(() => parseDescriptor(rest));
    expect(error).toMatchObject({
      name: 'RelayError',
      code: 'descriptor_missing_fields',
      details: { missing: ['label', 'len_unit'] },
      path: 'label',
    });
    expect(error.message).toContain('label, len_unit');
  });

  it('reports an infinite length before missing fields, as the gateway normalises the length first', () => {
    expect(catchError(() => parseDescriptor('{"max_message_length": 1e400}'))).toMatchObject({
      name: 'RelayError',
      code: 'descriptor_max_message_length_overflow',
    });
    expect(
      catchError(() => parseDescriptor('{"max_message_length": -Infinity, "label": "x"}')),
    ).toMatchObject({ name: 'RelayError', code: 'descriptor_max_message_length_overflow' });
    expect(catchError(() => parseDescriptor('{"max_message_length": 0}'))).toMatchObject({
      name: 'RelayError',
      code: 'descriptor_missing_fields',
    });
  });

  it('keeps a length whose text int() reads around Python whitespace, but not U+001C–U+001F', () => {
    expect(parseDescriptor({ ...base, max_message_length: '\u00a012\u2028' }).max_message_length).toBe(
      '\u00a012\u2028',
    );
    expect(parseDescriptor({ ...base, max_message_length: '12\x1f' }).max_message_length).toBe(4096);
  });

  it("refuses text Python's json.loads raises on: a 4301-digit int, nesting beyond 900", () => {
    const withExtra = (extra: string) => `{"extra": ${extra}, ${JSON.stringify(base).slice(1)}`;
    expect(parseDescriptor(withExtra('1'.repeat(4300))).label).toBe(base.label);
    expect(parseDescriptor(withExtra(`${'['.repeat(899)}${']'.repeat(899)}`)).label).toBe(base.label);
    for (const extra of ['1'.repeat(4301), `${'['.repeat(901)}${']'.repeat(901)}`]) {
      expect(catchError(() => parseDescriptor(withExtra(extra)))).toMatchObject({
        name: 'RelayError',
        code: 'descriptor_invalid_json',
      });
    }
  });

  it('refuses non-objects, bad JSON, infinite lengths and non-JSON values with typed errors', () => {
    expect(catchError(() => parseDescriptor('[]'))).toMatchObject({
      name: 'RelayError',
      code: 'descriptor_not_object',
    });
    expect(catchError(() => parseDescriptor(null))).toMatchObject({
      name: 'RelayError',
      code: 'descriptor_not_object',
    });
    expect(catchError(() => parseDescriptor(undefined))).toMatchObject({
      name: 'RelayError',
      code: 'descriptor_not_json',
    });
    const json = catchError(() => parseDescriptor('{nope'));
    expect(json).toMatchObject({ name: 'RelayError', code: 'descriptor_invalid_json' });
    expect(json.cause).toBeInstanceOf(Error);
    expect(catchError(() => parseDescriptor({ ...base, max_message_length: Infinity }))).toMatchObject({
      name: 'RelayError',
      code: 'descriptor_max_message_length_overflow',
    });
    expect(catchError(() => parseDescriptor({ ...base, label: 1n }))).toMatchObject({
      code: 'descriptor_not_json',
      path: 'label',
    });
    expect(catchError(() => parseDescriptor({ ...base, label: new Date(0) }))).toMatchObject({
      name: 'RelayError',
      code: 'descriptor_not_json',
    });
    const cyclic: Record<string, unknown> = { ...base };
    cyclic['self'] = cyclic;
    expect(catchError(() => parseDescriptor(cyclic))).toMatchObject({
      name: 'RelayError',
      code: 'descriptor_not_json',
    });
  });

  it('keeps a NaN max_message_length out (4096) but a NaN elsewhere verbatim', () => {
    expect(parseDescriptor({ ...base, max_message_length: Number.NaN }).max_message_length).toBe(4096);
    expect(parseDescriptor({ ...base, label: Number.NaN }).label).toBeNaN();
  });

  it('parseDescriptorValue never reads a string as JSON text', () => {
    expect(catchError(() => parseDescriptorValue(JSON.stringify(base)))).toMatchObject({
      name: 'RelayError',
      code: 'descriptor_not_object',
    });
  });
});

describe('descriptorSupportsOp', () => {
  it('uses the legacy set only when supported_ops is empty', () => {
    const legacy = parseDescriptor(base);
    expect(['send', 'edit', 'typing', 'follow_up'].map((op) => descriptorSupportsOp(legacy, op))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(descriptorSupportsOp(legacy, 'react')).toBe(false);
    const explicit = parseDescriptor({ ...base, supported_ops: ['react'] });
    expect(descriptorSupportsOp(explicit, 'react')).toBe(true);
    expect(descriptorSupportsOp(explicit, 'send')).toBe(false);
    expect(descriptorSupportsOp(explicit, 'React')).toBe(false);
  });
});

describe('descriptorToWire', () => {
  it('writes every field in declaration order', () => {
    const wire = descriptorToWire(parseDescriptor({ extra: 1, ...base }));
    expect(Object.keys(wire)).toEqual([
      'contract_version',
      'platform',
      'label',
      'max_message_length',
      'supports_draft_streaming',
      'supports_edit',
      'supports_threads',
      'markdown_dialect',
      'len_unit',
      'emoji',
      'platform_hint',
      'pii_safe',
      'supports_context',
      'supported_ops',
      'supports_inchannel_continuable',
      'supports_block_formatting',
    ]);
  });
});

describe('capabilityDescriptorWireSchema', () => {
  it('outputs the parsed descriptor', () => {
    expect(capabilityDescriptorWireSchema.parse({ ...base, max_message_length: -1 })).toEqual(
      parseDescriptor({ ...base, max_message_length: 4096 }),
    );
  });

  it('reports the RelayError code and field', () => {
    const result = capabilityDescriptorWireSchema.safeParse({ platform: 'x' });
    expect(result.success).toBe(false);
    const issue = result.error?.issues[0];
    expect(issue?.path).toEqual(['contract_version']);
    expect(issue).toMatchObject({ code: 'custom', params: { code: 'descriptor_missing_fields' } });
    expect(capabilityDescriptorWireSchema.safeParse(JSON.stringify(base)).success).toBe(false);
  });
});

function catchError(run: () => unknown): RelayError {
  try {
    run();
  } catch (error) {
    if (error instanceof RelayError && DESCRIPTOR_ERROR_CODES.has(error.code)) return error;
    throw error;
  }
  throw new Error('expected a descriptor RelayError');
}
