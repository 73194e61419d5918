import { describe, expect, it } from 'vitest';
import {
  type CreateDescriptorFields,
  createDescriptor,
  descriptorToWire,
  parseDescriptor,
} from './descriptor.js';

const fields: CreateDescriptorFields = {
  platform: 'discord',
  label: 'Discord',
  max_message_length: 2000,
  supports_draft_streaming: false,
  supports_edit: true,
  supports_threads: true,
  markdown_dialect: 'discord',
  len_unit: 'utf16',
};

describe('createDescriptor', () => {
  it('fills contract_version and defaults, and is what the gateway parses back', () => {
    const descriptor = createDescriptor(fields);
    expect(descriptor).toMatchObject({
      contract_version: 1,
      emoji: '🔌',
      supported_ops: [],
      pii_safe: false,
    });
    expect(Object.keys(descriptor)).toEqual(Object.keys(descriptorToWire(descriptor)));
    expect(parseDescriptor(JSON.stringify(descriptor))).toEqual(descriptor);
    expect(Object.isFrozen(descriptor)).toBe(true);
  });

  it('copies supported_ops', () => {
    const ops = ['send', 'react'];
    const descriptor = createDescriptor({ ...fields, supported_ops: ops });
    ops.push('prompt');
    expect(descriptor.supported_ops).toEqual(['send', 'react']);
  });

  it.each([
    ['missing label', { label: undefined }, 'label'],
    ['string boolean', { supports_edit: 'false' }, 'supports_edit'],
    ['zero length', { max_message_length: 0 }, 'max_message_length'],
    ['float length', { max_message_length: 1999.5 }, 'max_message_length'],
    ['string length', { max_message_length: '2000' }, 'max_message_length'],
    ['unsafe length', { max_message_length: 2 ** 53 }, 'max_message_length'],
    ['unknown len_unit', { len_unit: 'bytes' }, 'len_unit'],
    ['empty label', { label: '' }, 'label'],
    ['lone surrogate', { label: 'a\ud800' }, 'label'],
    ['upper-case platform', { platform: 'Discord' }, 'platform'],
    ['empty op', { supported_ops: ['send', ''] }, 'supported_ops'],
    ['op list as string', { supported_ops: 'send' }, 'supported_ops'],
    ['contract version 0', { contract_version: 0 }, 'contract_version'],
    ['null emoji', { emoji: null }, 'emoji'],
    ['unknown key', { supportsEdit: true }, 'supportsEdit'],
  ])('refuses %s', (_name, change, path) => {
    const run = () => createDescriptor({ ...fields, ...change } as unknown as CreateDescriptorFields);
    expect(run).toThrow(expect.objectContaining({ code: 'descriptor_invalid_field' }));
    try {
      run();
    } catch (error) {
      expect(error).toMatchObject({ name: 'RelayError', code: 'descriptor_invalid_field', path });
    }
  });

  it('refuses a non-object', () => {
    expect(() => createDescriptor(null as unknown as CreateDescriptorFields)).toThrow(
      expect.objectContaining({ code: 'descriptor_invalid_field' }),
    );
  });
});
