// What a reference node answers, as found by differential runs against the reference server
// (transport/server.py over its CapabilityBus): version reading, refusal texts, stream-mode errors.

import { describe, expect, it } from 'vitest';
import { BadRequestError, type CapabilityDescriptor, CapabilityRegistry } from '../capabilities/index.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { type CapabilityHandler, createBusHandler, staticTrust } from '../wire/bus-handler.js';
import { referenceVersion, referenceWire } from './reference-wire.js';

function descriptor(name: string): CapabilityDescriptor {
  return {
    name,
    version: '1.0',
    stability: 'stable',
    trust: { level: 'member' },
    idempotency: { kind: 'idempotent' },
    streaming: 'none',
    requestSchema: {},
    responseSchema: {},
    streamSchema: null,
  };
}

function referenceNode() {
  const registry = new CapabilityRegistry<CapabilityHandler>({ allowNonContractNames: true });
  registry.register(descriptor('x.echo'), ({ input }) => ({ output: { input }, meta: {} }), {
    maxConcurrent: 4,
  });
  registry.register(
    descriptor('x.fail'),
    () => {
      throw new BadRequestError('nope');
    },
    { maxConcurrent: 4 },
  );
  return createBusHandler({
    identity: keyPairFromSeed(new Uint8Array(32).fill(3)),
    registry,
    wire: referenceWire,
    acceptUnsigned: true,
    trust: staticTrust({}, 'member'),
  });
}

async function post(body: unknown, headers: Record<string, string> = {}) {
  const response = await referenceNode()(
    new Request('http://node.test/bus/v1/call', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', ...headers },
    }),
  );
  return { status: response.status, type: response.headers.get('Content-Type'), text: await response.text() };
}

describe('referenceVersion (the reference _parse_version through Python int())', () => {
  it.each([
    ['1', '1.0'],
    ['1.0.5', '1.0'],
    [' 1 . 0 ', '1.0'],
    ['\t1\n.0', '1.0'],
    ['01.00', '1.0'],
    ['+1.0', '1.0'],
    ['1.-0', '1.0'],
    ['1_0.0', '10.0'],
    ['\u0661.\u0660', '1.0'],
    ['\u{1d7d9}.\u{1d7ce}', '1.0'],
    ['-1.0', '-1.0'],
    ['99999999999999999999.0', '99999999999999999999.0'],
  ])('reads %j as %s', (text, version) => {
    expect(referenceVersion(text)).toEqual({ version });
  });

  it.each([
    ['', "invalid literal for int() with base 10: ''"],
    ['1.', "invalid literal for int() with base 10: ''"],
    ['0x1.0', "invalid literal for int() with base 10: '0x1'"],
    ['1_.0', "invalid literal for int() with base 10: '1_'"],
    ['1.0\u0000', "invalid literal for int() with base 10: '0\\x00'"],
    ['1.x', "invalid literal for int() with base 10: 'x'"],
    ["'.0", `invalid literal for int() with base 10: "'"`],
    // Python's repr escapes what str.isprintable() rejects, beyond ASCII too (CPython 3.11 checked).
    ['1.\u200b', "invalid literal for int() with base 10: '\\u200b'"],
    ['\u00a0x.0', "invalid literal for int() with base 10: '\\xa0x'"],
  ])('refuses %j with the ValueError text', (text, refused) => {
    expect(referenceVersion(text)).toEqual({ refused });
  });
});

describe('reference wire handler answers', () => {
  it('refuses a missing capability with the reference message', async () => {
    const answer = await post({ capability: '' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({
      error: 'missing_capability',
      message: 'capability field required',
    });
  });

  it('answers a version no provider can have (negative, malformed name) with call_error 500', async () => {
    const negative = await post({ capability: 'x.echo', version: '-1.0' });
    expect(negative.status).toBe(500);
    expect(JSON.parse(negative.text)).toEqual({
      error: 'call_error',
      message: 'no provider for x.echo@(-1, 0)',
    });
    const upper = await post({ capability: 'X.ECHO', version: '1.0' });
    expect(JSON.parse(upper.text)).toEqual({ error: 'call_error', message: 'no provider for X.ECHO@(1, 0)' });
  });

  it('stamps _routed_via on in-band errors and ignores a request id it would refuse', async () => {
    const answer = await post({ capability: 'x.fail' }, { 'X-HearthNet-Request-Id': 'a b' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ error: 'bad_request', message: 'nope', _routed_via: 'local' });
  });

  it('asks for a stream with any truthy stream value and answers bus errors as an error frame', async () => {
    const echo = await post({ capability: 'x.echo', input: { a: 1 }, stream: 'yes' });
    expect(echo.type).toMatch(/^text\/event-stream/);
    expect(echo.text).toBe(
      'data: {"output":{"input":{"a":1}},"meta":{},"_routed_via":"local"}\n\nevent: done\ndata: {"done":true}\n\n',
    );
    const plain = await post({ capability: 'x.echo', stream: [] });
    expect(plain.type).toBe('application/json');
    const missing = await post({ capability: 'x.none', stream: 1 });
    expect(missing.status).toBe(200);
    expect(missing.text).toBe(
      'event: error\ndata: {"error":"call_error","message":"no provider for x.none@(1, 0)"}\n\n',
    );
    const failed = await post({ capability: 'x.fail', stream: true });
    expect(failed.text).toBe(
      'data: {"error":"bad_request","message":"nope","_routed_via":"local"}\n\nevent: done\ndata: {"done":true}\n\n',
    );
  });
});
