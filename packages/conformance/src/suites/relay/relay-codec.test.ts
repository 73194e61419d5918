import { readFileSync } from 'node:fs';
import {
  buildSessionKey,
  decodePassthroughBody,
  descriptorToJson,
  discordInteractionEvent,
  encodePassthroughBody,
  eventToWire,
  OUTBOUND_OPS,
  parseDescriptor,
  rewriteSlackParentCommand,
} from '@agentwire/relay';
import { afterAll, describe, expect, it } from 'vitest';
import descriptorsFixture from '../../../fixtures/relay/descriptors.json' with { type: 'json' };
import interactionsFixture from '../../../fixtures/relay/discord-interaction-events.json' with {
  type: 'json',
};
import framesFixture from '../../../fixtures/relay/frames.json' with { type: 'json' };
import inboundEventsFixture from '../../../fixtures/relay/inbound-events.json' with { type: 'json' };
import passthroughFixture from '../../../fixtures/relay/passthrough.json' with { type: 'json' };
import sessionSourceFixture from '../../../fixtures/relay/session-source.json' with { type: 'json' };
import fromDictFixture from '../../../fixtures/relay/session-source-from-dict.json' with { type: 'json' };
import slackFixture from '../../../fixtures/relay/slack-parent-commands.json' with { type: 'json' };
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { agentwireRelayCodec } from './agentwire-relay.js';
import type { FrameStreamOutcome } from './frame-cases.js';
import { relayCodecSuite } from './relay-codec.js';

const ids = (report: { results: readonly { id: string; status: string }[] }, status: string) =>
  report.results.filter((r) => r.status === status).map((r) => r.id);

describe('relayCodecSuite', () => {
  it('passes every case against @agentwire/relay, skipping only the Python-float cases', async () => {
    const report = await runSuite(relayCodecSuite(agentwireRelayCodec));
    expect(report.results.filter((r) => r.status === 'failed')).toEqual([]);
    const pythonFloats = fromDictFixture.cases
      .filter((c) => c.tags.some((tag) => tag.startsWith('js-')))
      .map((c) => `relay.codec.session-source-from-dict.${c.id}`);
    expect(pythonFloats.length).toBeGreaterThan(0);
    const skipped = ['relay.codec.descriptors.mml-exponent-kept.to-json', ...pythonFloats];
    expect(ids(report, 'skipped')).toEqual(skipped);
    expect(report.counts.passed).toBe(relayCodecSuite(agentwireRelayCodec).cases.length - skipped.length);
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

  it('has a case per fixture case of all eight files, with more cases where more functions are checked', () => {
    const caseIds = relayCodecSuite({}).cases.map((c) => c.id);
    const expected = [
      ...descriptorsFixture.cases.flatMap((c) =>
        'error' in c
          ? [`relay.codec.descriptors.${c.id}`]
          : ['', '.supports-op', '.to-json', '.message-lengths', '.supports-code-blocks'].map(
              (suffix) => `relay.codec.descriptors.${c.id}${suffix}`,
            ),
      ),
      ...sessionSourceFixture.cases.flatMap((c) =>
        'rewire' in c
          ? [`relay.codec.session-source.${c.id}`, `relay.codec.session-source.${c.id}.rewire`]
          : [`relay.codec.session-source.${c.id}`],
      ),
      ...fromDictFixture.cases.map((c) => `relay.codec.session-source-from-dict.${c.id}`),
      ...framesFixture.cases.map((c) => `relay.codec.frames.${c.id}`),
      ...passthroughFixture.cases.map((c) => `relay.codec.passthrough.${c.id}`),
      ...slackFixture.cases.map((c) => `relay.codec.slack-parent-commands.${c.id}`),
      ...interactionsFixture.cases.flatMap((c) =>
        'expected' in c
          ? [
              `relay.codec.discord-interaction-events.${c.id}`,
              `relay.codec.discord-interaction-events.${c.id}.session-key`,
            ]
          : [`relay.codec.discord-interaction-events.${c.id}`],
      ),
      ...inboundEventsFixture.cases.flatMap((c) =>
        'expected' in c
          ? [`relay.codec.inbound-events.${c.id}`, `relay.codec.inbound-events.${c.id}.rewire`]
          : [`relay.codec.inbound-events.${c.id}`],
      ),
    ];
    expect(caseIds).toEqual(expected);
    const byId = (id: string) => relayCodecSuite({}).cases.find((c) => c.id === id);
    expect(byId('relay.codec.passthrough.headers-float-part-unrepresentable')?.level).toBe('recommended');
    expect(byId('relay.codec.passthrough.headers-number-crashes-gateway')?.level).toBe('required');
    expect(byId('relay.codec.descriptors.mml-exponent-kept.to-json')?.requires).toBe(
      'python-number-fidelity',
    );
    expect(byId('relay.codec.descriptors.minimal-valid.to-json')?.since).toBe('1.2.0');
    expect(byId('relay.codec.descriptors.markdown-dialect-plain.to-json')?.since).toBe('1.3.0');
    expect(byId('relay.codec.frames.stream-binary-batched-frames')?.since).toBe('1.3.0');
    expect(byId('relay.codec.frames.encode-compact-nan-refused')?.level).toBe('recommended');
    expect(byId('relay.codec.inbound-events.minimal.rewire')?.requires).toBe('event-to-wire');
    expect(byId('relay.codec.discord-interaction-events.upstream-profile-stamped')?.requires).toBe(
      'discord-interaction-event:upstream-2026-09-21',
    );
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

describe('relayCodecSuite: descriptor views and inbound events', () => {
  it('fails descriptor views, a Slack rewrite and an interaction converter with realistic mistakes', async () => {
    const report = await runSuite(
      relayCodecSuite({
        ...agentwireRelayCodec,
        // JavaScript's compact JSON instead of json.dumps with sorted keys.
        descriptorToJson: (descriptor) => JSON.stringify(descriptor),
        // UTF-16 code units whatever len_unit says.
        descriptorMessageLength: (_descriptor, text) => text.length,
        // Only markdown dialects render code blocks.
        descriptorSupportsCodeBlocks: (descriptor) =>
          String(descriptor['markdown_dialect']).startsWith('markdown'),
        // Sub-commands matched in any case.
        rewriteSlackParentCommand: (text, messageType) => {
          const [rewritten, type] = rewriteSlackParentCommand(text.toLowerCase(), messageType as 'text');
          return { text: rewritten, message_type: type };
        },
        // The event's source written with its keys sorted.
        discordInteractionEvent: async (forward, options) => {
          const wire = (await agentwireRelayCodec.discordInteractionEvent?.(forward, options)) as
            | Record<string, unknown>
            | undefined;
          if (wire === undefined) return undefined;
          const source = wire['source'] as Record<string, unknown>;
          return {
            ...wire,
            source: Object.fromEntries(Object.entries(source).sort(([a], [b]) => a.localeCompare(b))),
          };
        },
        // The dialect ignored.
        buildSessionKey: (source) => buildSessionKey(source as never),
      }),
    );
    const failed = new Set(ids(report, 'failed'));
    expect(failed.has('relay.codec.descriptors.minimal-valid.to-json')).toBe(true);
    expect(failed.has('relay.codec.descriptors.minimal-valid.message-lengths')).toBe(true);
    expect(failed.has('relay.codec.descriptors.telegram-utf16.message-lengths')).toBe(false);
    expect(failed.has('relay.codec.descriptors.minimal-valid.supports-code-blocks')).toBe(true);
    expect(failed.has('relay.codec.slack-parent-commands.subcommand-upper')).toBe(true);
    expect(failed.has('relay.codec.slack-parent-commands.new')).toBe(false);
    expect(failed.has('relay.codec.discord-interaction-events.command-plain')).toBe(true);
    expect(failed.has('relay.codec.discord-interaction-events.command-plain.session-key')).toBe(false);
    expect(failed.has('relay.codec.discord-interaction-events.upstream-profile-stamped.session-key')).toBe(
      true,
    );
    expect(failed.has('relay.codec.descriptors.minimal-valid')).toBe(false);
  });

  it('skips the newer-dialect interaction cases for a baseline-only implementation', async () => {
    const { eventDialects: _, ...baselineOnly } = agentwireRelayCodec;
    const report = await runSuite(relayCodecSuite(baselineOnly));
    const upstream = interactionsFixture.cases.filter((c) => 'dialect' in c);
    expect(upstream.length).toBeGreaterThan(0);
    const skipped = ids(report, 'skipped');
    for (const c of upstream) expect(skipped).toContain(`relay.codec.discord-interaction-events.${c.id}`);
    expect(report.ok).toBe(true);
  });

  it('gives the same interaction events when @agentwire/relay reads the body as text or as bytes', async () => {
    for (const asText of [true, false]) {
      const report = await runSuite(
        relayCodecSuite({
          discordInteractionEvent: (forward, { dialect }) => {
            const bytes = decodePassthroughBody(forward.bodyB64);
            // ignoreBOM keeps a BOM in the text, as the gateway sees it.
            const body = asText ? new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) : bytes;
            const event = discordInteractionEvent(body, {
              dialect: dialect as 'baseline-2026-07-26',
              profile: forward.profile ?? null,
            });
            return event === undefined ? undefined : eventToWire(event);
          },
          eventDialects: agentwireRelayCodec.eventDialects ?? [],
          errorCode: (error) => agentwireRelayCodec.errorCode?.(error),
        }),
      );
      expect(ids(report, 'failed')).toEqual([]);
      expect(ids(report, 'passed').length).toBe(interactionsFixture.cases.length);
    }
  });

  it('writes the integral float of mml-exponent-kept as an int: the one documented to_json() difference', () => {
    const entry = descriptorsFixture.cases.find((c) => c.id === 'mml-exponent-kept');
    if (entry === undefined || !('to_json' in entry)) throw new Error('mml-exponent-kept is a parsed case');
    expect(entry.to_json).toContain('"max_message_length": 2000.0');
    expect(descriptorToJson(parseDescriptor(entry.input))).toBe(entry.to_json.replace('2000.0', '2000'));
  });

  it('parses every descriptor with its keys in declaration order, the order of the fixture', () => {
    for (const c of descriptorsFixture.cases) {
      if ('expected' in c)
        expect(Object.keys(parseDescriptor(c.input)), c.id).toEqual(Object.keys(c.expected));
    }
  });
});

describe('the relay codec fixtures', () => {
  const errorsOf = (cases: readonly object[]) =>
    new Set(cases.flatMap((c) => ('error' in c ? [c.error as string] : [])));

  it('descriptors.json covers valid, defaulted, normalised, malformed and missing-field cases', () => {
    const tags = new Set(descriptorsFixture.cases.flatMap((c) => c.tags));
    for (const tag of ['valid', 'defaults', 'max_message_length', 'supported_ops', 'malformed', 'missing']) {
      expect(tags).toContain(tag);
    }
    expect(descriptorsFixture.cases.length).toBeGreaterThanOrEqual(40);
  });

  it('session-source.json has both directions and an error case; from-dict.json every refusal and caveat', () => {
    expect(new Set(sessionSourceFixture.cases.map((c) => c.op))).toEqual(new Set(['to_wire', 'from_wire']));
    expect(errorsOf(sessionSourceFixture.cases).size).toBeGreaterThan(0);
    expect(errorsOf(fromDictFixture.cases)).toEqual(
      new Set([
        'session_source_not_object',
        'session_source_missing_platform',
        'session_source_unknown_platform',
        'session_source_missing_chat_id',
      ]),
    );
    const tags = new Set(fromDictFixture.cases.flatMap((c) => c.tags));
    for (const tag of ['js-integral-float', 'js-ambiguous-number', 'newer']) expect(tags).toContain(tag);
  });

  it('frames.json covers every frame type, op, error code and the chunking cases', () => {
    const text = readFileSync(new URL('../../../fixtures/relay/frames.json', import.meta.url), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(framesFixture.description.length).toBeGreaterThan(200);
    expect(framesFixture.source).toContain('relay-reference.md §2.3');
    const cases = framesFixture.cases as readonly Record<string, unknown>[];
    const decoded = cases.flatMap((c) =>
      c['operation'] === 'decode' && 'expected' in c ? [c['expected']] : [],
    );
    const frames = decoded as readonly { type: string; action?: { op: string } }[];
    expect(new Set(frames.map((f) => f.type)).size).toBe(11);
    const ops = new Set(frames.flatMap((f) => (f.action ? [f.action.op] : [])));
    for (const op of OUTBOUND_OPS) {
      expect(ops.has(op), op).toBe(true);
    }
    const streams = cases.filter((c) => c['operation'] === 'stream');
    const errors = new Set([
      ...errorsOf(cases.filter((c) => c['operation'] === 'decode')),
      ...errorsOf(streams.flatMap((c) => c['expected'] as object[])),
    ]);
    expect([...errors].sort()).toEqual(
      [
        'incomplete_frame',
        'invalid_frame',
        'invalid_utf8',
        'line_too_long',
        'malformed_json',
        'not_object',
      ].sort(),
    );
    expect(streams.length).toBeGreaterThanOrEqual(15);
    expect(streams.some((c) => (c['chunks'] as unknown[]).some((chunk) => typeof chunk !== 'string'))).toBe(
      true,
    );
  });

  it('passthrough.json has cases of every operation', () => {
    expect(new Set(passthroughFixture.cases.map((c) => c.operation))).toEqual(
      new Set([
        'encode_body',
        'decode_body',
        'decode_body_strict',
        'headers_from_wire',
        'encode_prompt_callback',
        'decode_prompt_callback',
        'relay_urls',
        'media_url',
      ]),
    );
  });

  it('discord-interaction-events.json covers every outcome and both dialects', () => {
    const cases = interactionsFixture.cases as readonly Record<string, unknown>[];
    expect(cases.length).toBeGreaterThanOrEqual(40);
    expect(cases.some((c) => c['dropped'] === true)).toBe(true);
    expect(cases.some((c) => 'error' in c)).toBe(true);
    expect(cases.some((c) => c['dialect'] === 'upstream-2026-09-21')).toBe(true);
  });
});

describe('relayCodecSuite through registerSuite', () => {
  registerSuite(relayCodecSuite(agentwireRelayCodec), { describe, it, afterAll });
});
