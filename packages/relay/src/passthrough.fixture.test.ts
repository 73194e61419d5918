import { describe, expect, it } from 'vitest';
import passthroughFixture from '../../conformance/fixtures/relay/passthrough.json' with { type: 'json' };
import { RelayError } from './errors.js';
import {
  decodePassthroughBody,
  decodePassthroughBodyStrict,
  decodePromptCallback,
  deriveRelayUrls,
  encodePassthroughBody,
  encodePromptCallback,
  passthroughHeadersFromWire,
  relayMediaUrl,
} from './passthrough.js';

interface PassthroughCase {
  readonly id: string;
  readonly tags: readonly string[];
  readonly operation: string;
  readonly input?: unknown;
  readonly output?: unknown;
  readonly error?: string;
  readonly prompt_id?: string;
  readonly option_id?: string;
  readonly token?: string;
  readonly base_url?: string;
  readonly media_id?: string;
}

const cases = passthroughFixture.cases as readonly PassthroughCase[];

/** `{"$bytes": hex}` → bytes. */
function bytesOf(value: unknown): Uint8Array {
  const hex = (value as { $bytes: string }).$bytes;
  return Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

/** The outcome of `compute`: its value, or `{ error: code }` for a RelayError. */
function outcome(compute: () => unknown): unknown {
  try {
    return compute();
  } catch (error) {
    if (error instanceof RelayError) return { error: error.code };
    throw error;
  }
}

const expectedOf = (c: PassthroughCase, key: 'output' | 'token') =>
  c.error !== undefined ? { error: c.error } : c[key];

const run: Record<string, (c: PassthroughCase) => void> = {
  encode_body: (c) => {
    expect(encodePassthroughBody(bytesOf(c.input))).toBe(c.output);
  },
  decode_body: (c) => {
    expect(decodePassthroughBody(c.input)).toEqual(bytesOf(c.output));
  },
  decode_body_strict: (c) => {
    const got = outcome(() => decodePassthroughBodyStrict(c.input as string));
    expect(got).toEqual(c.error !== undefined ? { error: c.error } : bytesOf(c.output));
  },
  headers_from_wire: (c) => {
    expect(outcome(() => passthroughHeadersFromWire(c.input))).toEqual(expectedOf(c, 'output'));
  },
  encode_prompt_callback: (c) => {
    const got = outcome(() => encodePromptCallback({ promptId: c.prompt_id!, optionId: c.option_id! }));
    expect(got).toEqual(expectedOf(c, 'token'));
  },
  decode_prompt_callback: (c) => {
    const got = outcome(() => {
      const { promptId, optionId } = decodePromptCallback(c.token!);
      return { prompt_id: promptId, option_id: optionId };
    });
    expect(got).toEqual(expectedOf(c, 'output'));
  },
  relay_urls: (c) => {
    const urls = deriveRelayUrls(c.base_url!);
    expect({
      web_socket: urls.webSocket,
      http_base: urls.httpBase,
      enroll: urls.enroll,
      provision: urls.provision,
      policy: urls.policy,
      media: urls.media,
    }).toEqual(c.output);
  },
  media_url: (c) => {
    expect(relayMediaUrl(c.base_url!, c.media_id!)).toBe(c.output);
  },
};

describe('fixtures/relay/passthrough.json', () => {
  it('has unique ids and cases for every operation', () => {
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    expect(new Set(cases.map((c) => c.operation))).toEqual(new Set(Object.keys(run)));
  });

  for (const c of cases) {
    it(c.id, () => run[c.operation]!(c));
  }
});
