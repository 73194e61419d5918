// Runs the language-neutral fixture packages/conformance/fixtures/relay/frames.json against this
// implementation, and guards the file itself (shape, ids, coverage).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type FrameErrorCode, RelayError } from './errors.js';
import { decodeConnectorFrame, decodeFrame, decodeGatewayFrame } from './frames/decode.js';

import { frameToWireObject, type UnknownFrame } from './frames/frames.js';
import {
  type EncodableFrame,
  encodeFrame,
  FrameDecoder,
  type FrameDecoderResult,
  type FrameJsonStyle,
} from './ndjson.js';

const FIXTURE_URL = new URL('../../conformance/fixtures/relay/frames.json', import.meta.url);
const ERROR_CODES: readonly FrameErrorCode[] = [
  'malformed_json',
  'not_object',
  'invalid_frame',
  'invalid_utf8',
  'line_too_long',
  'incomplete_frame',
];

type Outcome = { frame: unknown } | { ignored: true } | { error: string };

interface DecodeCase {
  readonly operation: 'decode';
  readonly direction: 'gateway' | 'connector' | 'any';
  readonly line: string;
  readonly expected?: unknown;
  readonly ignored?: true;
  readonly error?: string;
}
interface EncodeCase {
  readonly operation: 'encode';
  readonly style: FrameJsonStyle;
  readonly frame: EncodableFrame;
  readonly expected: string;
}
interface StreamCase {
  readonly operation: 'stream';
  readonly chunks: readonly (string | { readonly $bytes: string })[];
  readonly maxLineBytes?: number;
  readonly expected: readonly Outcome[];
}
type FixtureCase = { readonly id: string; readonly tags: readonly string[] } & (
  | DecodeCase
  | EncodeCase
  | StreamCase
);

const text = readFileSync(FIXTURE_URL, 'utf8');
const fixture = JSON.parse(text) as { description: string; source: string; cases: FixtureCase[] };

const DECODERS = { gateway: decodeGatewayFrame, connector: decodeConnectorFrame, any: decodeFrame };

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

function outcomeOf(frame: { type: string }): Outcome {
  if (frame.type === 'unknown') return { ignored: true };
  return { frame: frameToWireObject(frame as unknown as Record<string, unknown>) };
}

function resultOutcome(result: FrameDecoderResult<{ type: string } | UnknownFrame>): Outcome {
  return result.ok ? outcomeOf(result.frame) : { error: result.error.code };
}

describe('fixture relay/frames.json', () => {
  it('is well-formed: unique kebab-case ids, tags, one outcome per case, known error codes', () => {
    expect(fixture.description.length).toBeGreaterThan(200);
    expect(fixture.source).toContain('relay-reference.md §2.3');
    const ids = new Set<string>();
    for (const c of fixture.cases) {
      expect(c.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(ids.has(c.id), `duplicate id ${c.id}`).toBe(false);
      ids.add(c.id);
      expect(c.tags.length).toBeGreaterThan(0);
      if (c.operation === 'decode') {
        expect(
          [c.expected !== undefined, c.ignored === true, c.error !== undefined].filter(Boolean),
        ).toHaveLength(1);
        if (c.error !== undefined) expect(ERROR_CODES).toContain(c.error);
      }
      if (c.operation === 'stream') {
        for (const o of c.expected) if ('error' in o) expect(ERROR_CODES).toContain(o.error);
      }
    }
    expect(text.endsWith('\n')).toBe(true);
  });

  it('covers every frame type, every op, every error code and the chunking cases', () => {
    const decoded = fixture.cases.flatMap((c) =>
      c.operation === 'decode' && c.expected ? [c.expected] : [],
    );
    const types = new Set(decoded.map((f) => (f as { type: string }).type));
    expect(types.size).toBe(11);
    const ops = new Set(
      decoded.flatMap((f) => {
        const action = (f as { action?: { op: string } }).action;
        return action ? [action.op] : [];
      }),
    );
    for (const op of [
      'send',
      'edit',
      'typing',
      'follow_up',
      'get_chat_info',
      'send_media',
      'prompt',
      'react',
      'thread_create',
      'thread_rename',
    ]) {
      expect(ops.has(op), op).toBe(true);
    }
    const errors = new Set(
      fixture.cases.flatMap((c) =>
        c.operation === 'decode'
          ? [c.error]
          : c.operation === 'stream'
            ? c.expected.map((o) => ('error' in o ? o.error : undefined))
            : [],
      ),
    );
    for (const code of ERROR_CODES) expect(errors.has(code), code).toBe(true);
    expect(fixture.cases.filter((c) => c.operation === 'stream').length).toBeGreaterThanOrEqual(15);
    expect(
      fixture.cases.some((c) => c.operation === 'stream' && c.chunks.some((x) => typeof x !== 'string')),
    ).toBe(true);
  });

  it.each(fixture.cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    switch (c.operation) {
      case 'decode': {
        const decode = () => DECODERS[c.direction](c.line);
        if (c.error !== undefined) {
          expect(decode).toThrow(RelayError);
          expect(decode).toThrow(expect.objectContaining({ code: c.error }));
        } else {
          expect(outcomeOf(decode())).toEqual(c.ignored ? { ignored: true } : { frame: c.expected });
        }
        return;
      }
      case 'encode':
        expect(encodeFrame(c.frame, { style: c.style })).toBe(c.expected);
        return;
      case 'stream': {
        const decoder = new FrameDecoder(
          c.maxLineBytes === undefined ? {} : { maxLineBytes: c.maxLineBytes },
        );
        const chunks = c.chunks.map((chunk) => (typeof chunk === 'string' ? chunk : hexBytes(chunk.$bytes)));
        const results = [...chunks.flatMap((chunk) => decoder.push(chunk)), ...decoder.end()];
        expect(results.map(resultOutcome)).toEqual(c.expected);
        return;
      }
    }
  });
});
