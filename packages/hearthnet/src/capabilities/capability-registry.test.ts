import { describe, expect, it } from 'vitest';
import { CapabilityRegistry, referenceSchemaHash, schemaHash } from './capability-registry.js';
import { LLM_CHAT, RAG_QUERY } from './catalogue/catalogue.js';
import type { CapabilityDescriptor } from './descriptor.js';

const minor = (descriptor: CapabilityDescriptor, version: string): CapabilityDescriptor => ({
  ...descriptor,
  version,
});

describe('CapabilityRegistry', () => {
  it('resolves a requirement to the highest compatible minor, never another major', () => {
    const registry = new CapabilityRegistry<string>();
    registry.register(LLM_CHAT, 'v1.0', { maxConcurrent: 1 });
    registry.register(minor(LLM_CHAT, '1.2'), 'v1.2', { maxConcurrent: 1 });
    registry.register(minor(LLM_CHAT, '2.0'), 'v2.0', { maxConcurrent: 1 });
    expect(registry.resolve('llm.chat@>=1.0')?.handler).toBe('v1.2');
    expect(registry.resolve('llm.chat@1.1')?.handler).toBe('v1.2');
    expect(registry.resolve('llm.chat@>=1.3')).toBeUndefined();
    expect(registry.resolve('llm.chat@>=2.0')?.handler).toBe('v2.0');
    expect(registry.resolve('rag.query@>=1.0')).toBeUndefined();
    expect(registry.offeredVersions('llm.chat')).toEqual(['1.0', '1.2', '2.0']);
    expect(registry.unregister('llm.chat', '1.2')).toBe(true);
    expect(registry.resolve('llm.chat@>=1.0')?.handler).toBe('v1.0');
  });

  it('refuses duplicates, bad limits and names the contract does not allow', () => {
    const registry = new CapabilityRegistry();
    registry.register(RAG_QUERY, null, { maxConcurrent: 2 });
    expect(() => registry.register(RAG_QUERY, null, { maxConcurrent: 2 })).toThrow(
      expect.objectContaining({ code: 'duplicate_capability' }),
    );
    for (const maxConcurrent of [0, 1.5, Number.NaN, undefined]) {
      expect(() =>
        registry.register(minor(RAG_QUERY, '1.1'), null, { maxConcurrent } as unknown as {
          maxConcurrent: number;
        }),
      ).toThrow(expect.objectContaining({ code: 'invalid_capability_descriptor' }));
    }
    expect(() => registry.register({ ...RAG_QUERY, name: 'ocr.page' }, null, { maxConcurrent: 1 })).toThrow(
      expect.objectContaining({
        code: 'invalid_capability_name',
        details: expect.objectContaining({ reason: 'reserved_prefix' }),
      }),
    );
    expect(() =>
      registry.register({ ...RAG_QUERY, name: 'weather.now' }, null, { maxConcurrent: 1 }),
    ).toThrow(
      expect.objectContaining({
        code: 'invalid_capability_name',
        details: expect.objectContaining({ reason: 'unallocated_prefix' }),
      }),
    );
    expect(() => registry.register({ ...RAG_QUERY, version: '1' }, null, { maxConcurrent: 1 })).toThrow(
      expect.objectContaining({ code: 'invalid_capability_version' }),
    );
    const lenient = new CapabilityRegistry({ allowNonContractNames: true });
    expect(
      lenient.register({ ...RAG_QUERY, name: 'discovery.peer.add' }, null, { maxConcurrent: 1 }).descriptor
        .name,
    ).toBe('discovery.peer.add');
  });

  it('gates concurrency at max_concurrent; a release frees one slot once', () => {
    const registration = new CapabilityRegistry().register(LLM_CHAT, null, { maxConcurrent: 2 });
    const first = registration.tryAcquire();
    const second = registration.tryAcquire();
    expect(first && second).toBeTypeOf('function');
    expect(registration.tryAcquire()).toBeUndefined();
    first?.();
    first?.();
    expect(registration.inFlight).toBe(1);
    expect(registration.tryAcquire()).toBeTypeOf('function');
    expect(registration.tryAcquire()).toBeUndefined();
  });

  it('lists manifest entries with either schema hash, and counts calls in flight', () => {
    const registry = new CapabilityRegistry();
    const params = { model: 'qwen2.5-7b-instruct', models: ['qwen2.5-7b-instruct'] };
    registry.register(RAG_QUERY, null, { maxConcurrent: 8 });
    registry.register(LLM_CHAT, null, { maxConcurrent: 4, params }).tryAcquire();
    expect(registry.manifestEntries()).toEqual([
      {
        name: 'llm.chat',
        version: '1.0',
        stability: 'stable',
        schema_hash: schemaHash(LLM_CHAT),
        params,
        max_concurrent: 4,
      },
      {
        name: 'rag.query',
        version: '1.0',
        stability: 'stable',
        schema_hash: schemaHash(RAG_QUERY),
        params: {},
        max_concurrent: 8,
      },
    ]);
    expect(registry.manifestEntries({ schemaHash: 'reference' })[0]?.schema_hash).toBe(
      referenceSchemaHash('llm.chat', '1.0'),
    );
    expect(registry.inFlightTotal).toBe(1);
  });
});
