import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BufferedFrame,
  canonicalBufferedFrameJson,
  decodeBufferedFrame,
  encodeBufferedFrame,
  InMemoryInboundBuffer,
} from './buffer.js';

const frame = (text: string): BufferedFrame => ({ type: 'inbound', event: { text } });
const json = (text: string): string => JSON.stringify(frame(text));

describe('InMemoryInboundBuffer', () => {
  it('issues decimal ids from one counter shared by all tenants', async () => {
    const buffer = new InMemoryInboundBuffer();
    expect(await buffer.append('a', frame('1'))).toBe('1');
    expect(await buffer.append('b', frame('2'))).toBe('2');
    expect(await buffer.append('a', frame('3'))).toBe('3');
    expect(await buffer.read('a', '0', 10)).toEqual([
      { bufferId: '1', frameJson: json('1') },
      { bufferId: '3', frameJson: json('3') },
    ]);
  });

  it('stores a copy: changing the appended frame, even before append settles, changes nothing stored', async () => {
    const buffer = new InMemoryInboundBuffer();
    const appended = { type: 'inbound', event: { text: 'original' } } as {
      type: 'inbound';
      event: { text: string };
    };
    const appending = buffer.append('tenant', appended);
    appended.event.text = 'changed';
    await appending;
    expect(await buffer.read('tenant', null, 1)).toEqual([{ bufferId: '1', frameJson: json('original') }]);
  });

  it('reads, acks and positions like a plain ordered list, whatever the order of acks', async () => {
    const operation = fc.oneof(
      fc.record({ kind: fc.constant('append' as const) }),
      fc.record({ kind: fc.constant('ack' as const), pick: fc.nat() }),
      fc.record({
        kind: fc.constant('read' as const),
        pick: fc.nat(),
        limit: fc.integer({ min: 1, max: 9 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { maxLength: 400 }), async (operations) => {
        const buffer = new InMemoryInboundBuffer();
        const issued: string[] = [];
        const pending: string[] = [];
        for (const op of operations) {
          if (op.kind === 'append') {
            const bufferId = await buffer.append('t', frame(String(issued.length)));
            issued.push(bufferId);
            pending.push(bufferId);
          } else if (op.kind === 'ack') {
            const bufferId = issued[op.pick % (issued.length + 1)] ?? '0';
            const index = pending.indexOf(bufferId);
            expect(await buffer.ack('t', bufferId)).toBe(index >= 0);
            if (index >= 0) pending.splice(index, 1);
          } else {
            const after = issued[op.pick % (issued.length + 1)] ?? null;
            const expected = pending.filter((id) => after === null || Number(id) > Number(after));
            const entries = await buffer.read('t', after, op.limit);
            expect(entries.map((entry) => entry.bufferId)).toEqual(expected.slice(0, op.limit));
            for (const entry of entries)
              expect(entry.frameJson).toBe(json(String(Number(entry.bufferId) - 1)));
          }
        }
        expect(await buffer.size('t')).toBe(pending.length);
      }),
      { numRuns: 60 },
    );
  });

  it.each([
    [
      'a frame with an extra key',
      () => new InMemoryInboundBuffer().append('t', { ...frame('x'), bufferId: '1' } as never),
      'frame.bufferId',
    ],
    [
      'a frame with a non-finite number',
      () => new InMemoryInboundBuffer().append('t', { type: 'inbound', event: { n: Number.NaN } }),
      'frame.event',
    ],
    [
      'a forward that is an array',
      () => new InMemoryInboundBuffer().append('t', { type: 'passthrough_forward', forward: [] } as never),
      'frame.forward',
    ],
    [
      'a class instance in a frame',
      () => new InMemoryInboundBuffer().append('t', { type: 'inbound', event: { at: new Date() } } as never),
      'frame.event',
    ],
    ['an afterId that is not a decimal id', () => new InMemoryInboundBuffer().read('t', '1-0', 1), 'afterId'],
    ['a limit of 0', () => new InMemoryInboundBuffer().read('t', null, 0), 'limit'],
    ['a bufferId that is a number', () => new InMemoryInboundBuffer().ack('t', 1 as never), 'bufferId'],
    ['a tenant that is undefined', () => new InMemoryInboundBuffer().size(undefined as never), 'tenant'],
  ])('refuses %s with invalid_buffer_argument', async (_, action, path) => {
    const error = await action().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ name: 'RelayError', code: 'invalid_buffer_argument' });
    expect(error).toMatchObject({ code: 'invalid_buffer_argument', path });
  });

  it('answers false for acks of strings that are not its ids', async () => {
    const buffer = new InMemoryInboundBuffer();
    await buffer.append('tenant', frame('x'));
    for (const bufferId of ['', 'x', '01', '1.0', ' 1'])
      expect(await buffer.ack('tenant', bufferId)).toBe(false);
    expect(await buffer.size('tenant')).toBe(1);
  });

  it('refuses use after close', async () => {
    const buffer = new InMemoryInboundBuffer();
    await buffer.close();
    await expect(buffer.size('tenant')).rejects.toMatchObject({ code: 'buffer_closed' });
    await expect(buffer.ack('tenant', '1')).rejects.toMatchObject({ code: 'buffer_closed' });
  });
});

describe('encodeBufferedFrame / decodeBufferedFrame', () => {
  it('round-trips a frame with its payload key order, type first', () => {
    const original: BufferedFrame = { type: 'passthrough_forward', forward: { z: 1, a: [null, 'é'] } };
    const text = encodeBufferedFrame(original);
    expect(text).toBe('{"type":"passthrough_forward","forward":{"z":1,"a":[null,"é"]}}');
    expect(decodeBufferedFrame(text)).toEqual(original);
    expect(encodeBufferedFrame({ event: { b: 1, a: 2 }, type: 'inbound' } as BufferedFrame)).toBe(
      '{"type":"inbound","event":{"b":1,"a":2}}',
    );
  });

  it('writes what JSON.stringify writes for the frame in type-first order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, inbound) => {
        const text = JSON.stringify(value);
        // An own "__proto__" key, as JSON.parse makes one, is data like any other key.
        const built = JSON.parse(`{"__proto__":${text},"value":${text}}`) as { [key: string]: never };
        const original: BufferedFrame = inbound
          ? { type: 'inbound', event: built }
          : { type: 'passthrough_forward', forward: built };
        const stored = encodeBufferedFrame(original);
        expect(stored).toBe(JSON.stringify(original));
        expect(stored).toContain('"__proto__"');
        expect(canonicalBufferedFrameJson(stored)).toBe(stored);
        expect(decodeBufferedFrame(stored)).toEqual(original);
      }),
      { numRuns: 200 },
    );
  });

  it('gives stored text in another spelling back as encodeBufferedFrame writes it', () => {
    expect(canonicalBufferedFrameJson('{ "event": { "a": [1, 2] },\n "type": "inbound" }')).toBe(
      '{"type":"inbound","event":{"a":[1,2]}}',
    );
    expect(() => canonicalBufferedFrameJson('{"type":"inbound","event":[]}')).toThrow(
      expect.objectContaining({ code: 'corrupt_buffered_frame' }),
    );
  });

  it.each([['not json'], ['{"type":"inbound"}'], ['[]']])('refuses the stored text %s', (text) => {
    expect(() => decodeBufferedFrame(text)).toThrow(
      expect.objectContaining({ code: 'corrupt_buffered_frame' }),
    );
  });
});
