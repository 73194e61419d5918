import { decodePassthroughBody, encodePassthroughBody, parseDescriptor } from '@agentwire/relay';
import { afterAll, describe, expect, it } from 'vitest';
import descriptorsFixture from '../../../fixtures/relay/descriptors.json' with { type: 'json' };
import framesFixture from '../../../fixtures/relay/frames.json' with { type: 'json' };
import passthroughFixture from '../../../fixtures/relay/passthrough.json' with { type: 'json' };
import sessionSourceFixture from '../../../fixtures/relay/session-source.json' with { type: 'json' };
import fromDictFixture from '../../../fixtures/relay/session-source-from-dict.json' with { type: 'json' };
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { agentwireRelayCodec } from './agentwire-relay.js';
import type { FrameStreamOutcome } from './frame-cases.js';
import { relayCodecSuite } from './relay-codec.js';

const ids = (report: { results: readonly { id: string; status: string }[] }, status: string) =>
  report.results.filter((r) => r.status === status).map((r) => r.id);

describe('relayCodecSuite', () => {
  it('passes every case against @agentwire/relay, skipping only the Python-float cases of from_dict', async () => {
    const report = await runSuite(relayCodecSuite(agentwireRelayCodec));
    expect(report.results.filter((r) => r.status === 'failed')).toEqual([]);
    const pythonFloats = fromDictFixture.cases
      .filter((c) => c.tags.some((tag) => tag.startsWith('js-')))
      .map((c) => `relay.codec.session-source-from-dict.${c.id}`);
    expect(pythonFloats.length).toBeGreaterThan(0);
    expect(ids(report, 'skipped')).toEqual(pythonFloats);
    expect(report.counts.passed).toBe(
      relayCodecSuite(agentwireRelayCodec).cases.length - pythonFloats.length,
    );
  });

  it('fails a from_dict that reads like the wire reader: relay fallback, no str() of chat_id, no refusals', async () => {
    const report = await runSuite(
      relayCodecSuite({
        ...agentwireRelayCodec,
        sessionSourceFromDict: (value) => agentwireRelayCodec.sessionSourceFromWire?.(value),
      }),
    );
    const failed = ids(report, 'failed');
    expect(failed).toContain('relay.codec.session-source-from-dict.platform-unknown');
    expect(failed).toContain('relay.codec.session-source-from-dict.chat-id-int');
    expect(failed).toContain('relay.codec.session-source-from-dict.platform-missing');
    expect(failed.every((id) => id.startsWith('relay.codec.session-source-from-dict.'))).toBe(true);
    const level = relayCodecSuite({}).cases.find((c) => c.id === failed[0])?.level;
    expect(level).toBe('recommended');
  });

  it('has a case per fixture case of all five files, with a second case where a second function is checked', () => {
    const caseIds = relayCodecSuite({}).cases.map((c) => c.id);
    const expected = [
      ...descriptorsFixture.cases.flatMap((c) =>
        'error' in c
          ? [`relay.codec.descriptors.${c.id}`]
          : [`relay.codec.descriptors.${c.id}`, `relay.codec.descriptors.${c.id}.supports-op`],
      ),
      ...sessionSourceFixture.cases.flatMap((c) =>
        'rewire' in c
          ? [`relay.codec.session-source.${c.id}`, `relay.codec.session-source.${c.id}.rewire`]
          : [`relay.codec.session-source.${c.id}`],
      ),
      ...fromDictFixture.cases.map((c) => `relay.codec.session-source-from-dict.${c.id}`),
      ...framesFixture.cases.map((c) => `relay.codec.frames.${c.id}`),
      ...passthroughFixture.cases.map((c) => `relay.codec.passthrough.${c.id}`),
    ];
    expect(caseIds).toEqual(expected);
    const level = (id: string) => relayCodecSuite({}).cases.find((c) => c.id === id)?.level;
    expect(level('relay.codec.passthrough.headers-float-part-unrepresentable')).toBe('recommended');
    expect(level('relay.codec.passthrough.headers-number-crashes-gateway')).toBe('required');
  });

  it('skips every case of a function the implementation does not offer', async () => {
    const report = await runSuite(
      relayCodecSuite({ parseDescriptor, encodePassthroughBody, decodePassthroughBody }),
    );
    expect(report.ok).toBe(true);
    const passed = ids(report, 'passed');
    expect(passed).toContain('relay.codec.descriptors.minimal-valid');
    expect(passed).toContain('relay.codec.passthrough.decode-body-pad-inside-quantum');
    expect(passed.every((id) => /^relay\.codec\.(descriptors|passthrough)\./.test(id))).toBe(true);
    const skipped = ids(report, 'skipped');
    expect(skipped).toContain('relay.codec.descriptors.minimal-valid.supports-op');
    expect(skipped).toContain('relay.codec.frames.stream-utf8-split-inside-emoji');
    expect(skipped).toContain('relay.codec.session-source.from-wire-missing-source');
    expect(skipped).toContain('relay.codec.passthrough.prompt-decode-approval');
  });

  it('runs the python-style encode cases only when the implementation declares them', async () => {
    const { pythonFrameStyle: _, ...compactOnly } = agentwireRelayCodec;
    const report = await runSuite(relayCodecSuite(compactOnly));
    expect(ids(report, 'skipped').filter((id) => id.startsWith('relay.codec.frames.'))).toEqual(
      framesFixture.cases
        .filter((c) => c.operation === 'encode' && 'style' in c && c.style === 'python')
        .map((c) => `relay.codec.frames.${c.id}`),
    );
  });

  it('fails codecs that sort keys, decode with JSON.parse and split on every chunk', async () => {
    const report = await runSuite(
      relayCodecSuite({
        ...agentwireRelayCodec,
        // Key order of to_dict() lost.
        sessionSourceToWire: async (source) => {
          const wire = (await agentwireRelayCodec.sessionSourceToWire?.(source)) as Record<string, unknown>;
          return Object.fromEntries(Object.entries(wire).sort(([a], [b]) => a.localeCompare(b)));
        },
        // Any object is a frame, as written.
        decodeFrame: (line) => {
          const value: unknown = JSON.parse(line);
          if (value === null || typeof value !== 'object' || Array.isArray(value))
            throw new Error('not_object');
          return { frame: value as Record<string, unknown> };
        },
        // Each message decoded on its own: split frames and split UTF-8 are lost.
        createDecoder: () => ({
          push: (chunk): FrameStreamOutcome[] => {
            const text = typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk);
            return text
              .split('\n')
              .filter((line) => line.trim() !== '')
              .map((line) => {
                try {
                  return { frame: JSON.parse(line) as Record<string, unknown> };
                } catch {
                  return { error: 'malformed_json' };
                }
              });
          },
          end: () => [],
        }),
        // Lenient decoding that accepts unpadded input.
        decodePassthroughBody: (bodyB64) =>
          typeof bodyB64 === 'string'
            ? Uint8Array.from(atob(bodyB64.padEnd(Math.ceil(bodyB64.length / 4) * 4, '=')), (c) =>
                c.charCodeAt(0),
              )
            : new Uint8Array(),
      }),
    );
    const failed = new Set(ids(report, 'failed'));
    expect(failed.has('relay.codec.session-source.to-wire-truthy-optionals-in-order')).toBe(true);
    expect(failed.has('relay.codec.session-source.to-wire-minimal-dm')).toBe(true);
    expect(failed.has('relay.codec.frames.invalid-hello-missing-bot-id')).toBe(true);
    expect(failed.has('relay.codec.frames.unknown-type-ignored')).toBe(true);
    expect(failed.has('relay.codec.frames.gateway-interrupt')).toBe(false);
    expect(failed.has('relay.codec.frames.stream-frame-split-over-messages')).toBe(true);
    expect(failed.has('relay.codec.frames.stream-utf8-split-inside-emoji')).toBe(true);
    expect(failed.has('relay.codec.passthrough.decode-body-unpadded-gives-empty')).toBe(true);
    expect(failed.has('relay.codec.descriptors.minimal-valid')).toBe(false);
    expect(report.ok).toBe(false);
  });

  it('checks missing descriptor fields and error codes when the implementation reports them', async () => {
    const report = await runSuite(
      relayCodecSuite({
        parseDescriptor,
        missingDescriptorFields: () => ['platform'],
        errorCode: () => 'descriptor_missing_fields',
      }),
    );
    const failed = ids(report, 'failed');
    expect(failed).toContain('relay.codec.descriptors.missing-one');
    expect(failed).toContain('relay.codec.descriptors.invalid-json-empty');
    expect(failed).toHaveLength(descriptorsFixture.cases.filter((c) => 'error' in c).length);
  });
});

describe('relayCodecSuite through registerSuite', () => {
  registerSuite(relayCodecSuite(agentwireRelayCodec), { describe, it, afterAll });
});
