import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { satisfies } from './capability-name.js';
import { referenceSchemaHash, schemaHash, schemaHashDocument } from './capability-registry.js';
import {
  type CapabilityRequest,
  type CapabilityResponse,
  type CapabilityStreamFrame,
  catalogueValidators,
  LLM_CHAT,
} from './catalogue/catalogue.js';

describe('satisfies', () => {
  it('is the contract §2.1 rule for any versions', () => {
    fc.assert(
      fc.property(fc.nat(50), fc.nat(50), fc.nat(50), fc.nat(50), (a, b, x, y) => {
        expect(satisfies(`llm.chat@>=${a}.${b}`, `llm.chat@${x}.${y}`)).toBe(x === a && y >= b);
      }),
      { numRuns: 200 },
    );
  });
});

describe('schemaHash', () => {
  it('hashes null for absent response and stream schemas', () => {
    const descriptor = { name: 'experimental.echo', version: '0.1', requestSchema: {} } as const;
    const withNulls = { ...descriptor, responseSchema: null, streamSchema: null };
    expect(schemaHashDocument(descriptor as never)).toEqual({
      name: 'experimental.echo',
      version: '0.1',
      request_schema: {},
      response_schema: null,
      stream_schema: null,
    });
    expect(schemaHash(descriptor as never)).toBe(schemaHash(withNulls));
    expect(schemaHash(withNulls)).toMatch(/^blake3:[0-9a-f]{64}$/);
  });

  it('changes with any schema change and refuses malformed names and versions', () => {
    const changed = { ...LLM_CHAT, responseSchema: { ...LLM_CHAT.responseSchema, required: [] } };
    expect(schemaHash(changed)).not.toBe(schemaHash(LLM_CHAT));
    expect(() => schemaHash({ ...LLM_CHAT, version: '1.0.0' })).toThrow(
      expect.objectContaining({ code: 'invalid_capability_version' }),
    );
    expect(() => referenceSchemaHash('LLM', '1.0')).toThrow(
      expect.objectContaining({ code: 'invalid_capability_name' }),
    );
  });
});

describe('catalogue types', () => {
  it('derives request, parsed request, response and frame types from the schemas', () => {
    expectTypeOf<CapabilityRequest<'rag.query'>['input']['k']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<CapabilityRequest<'rag.query', 'output'>['input']['k']>().toEqualTypeOf<number>();
    expectTypeOf<CapabilityRequest<'llm.chat'>['input']['messages'][number]['role']>().toEqualTypeOf<
      'system' | 'user' | 'assistant'
    >();
    expectTypeOf<CapabilityResponse<'file.put'>>().toBeNever();
    expectTypeOf<CapabilityStreamFrame<'llm.complete'>['event']>().toEqualTypeOf<'token' | 'done'>();
    const parsed = catalogueValidators('market.list').request.parse({ params: {}, input: {} });
    expectTypeOf(parsed.input.limit).toEqualTypeOf<number>();
    expect(parsed.input.limit).toBe(50);
  });
});
