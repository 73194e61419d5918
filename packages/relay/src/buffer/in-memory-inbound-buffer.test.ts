import { describe, expect, it } from 'vitest';
import { InboundBufferClosedError, InvalidInboundBufferArgumentError } from './errors.js';
import { decodeBufferedFrame, encodeBufferedFrame } from './frame-codec.js';
import { InMemoryInboundBuffer } from './in-memory-inbound-buffer.js';
import type { BufferedFrame } from './inbound-buffer.js';

const frame = (text: string): BufferedFrame => ({ type: 'inbound', event: { text } });

describe('InMemoryInboundBuffer', () => {
  it('issues decimal ids from one counter shared by all tenants', async () => {
    const buffer = new InMemoryInboundBuffer();
    expect(await buffer.append('a', frame('1'))).toBe('1');
    expect(await buffer.append('b', frame('2'))).toBe('2');
    expect(await buffer.append('a', frame('3'))).toBe('3');
    expect(await buffer.read('a', '0', 10)).toEqual([
      { bufferId: '1', frame: frame('1') },
      { bufferId: '3', frame: frame('3') },
    ]);
  });

  it('stores a copy: changing the appended or the read frame changes nothing stored', async () => {
    const buffer = new InMemoryInboundBuffer();
    const appended = { type: 'inbound', event: { text: 'original' } } as {
      type: 'inbound';
      event: { text: string };
    };
    await buffer.append('tenant', appended);
    appended.event.text = 'changed';
    const [entry] = await buffer.read('tenant', null, 1);
    (entry!.frame as unknown as { event: { text: string } }).event.text = 'changed too';
    expect(await buffer.read('tenant', null, 1)).toEqual([{ bufferId: '1', frame: frame('original') }]);
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
  ])('refuses %s with InvalidInboundBufferArgumentError', async (_, action, path) => {
    const error = await action().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InvalidInboundBufferArgumentError);
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
    await expect(buffer.size('tenant')).rejects.toBeInstanceOf(InboundBufferClosedError);
    await expect(buffer.ack('tenant', '1')).rejects.toMatchObject({ code: 'buffer_closed' });
  });
});

describe('encodeBufferedFrame / decodeBufferedFrame', () => {
  it('round-trips a frame with its key order', () => {
    const original: BufferedFrame = { type: 'passthrough_forward', forward: { z: 1, a: [null, 'é'] } };
    const text = encodeBufferedFrame(original);
    expect(text).toBe('{"type":"passthrough_forward","forward":{"z":1,"a":[null,"é"]}}');
    expect(decodeBufferedFrame(text)).toEqual(original);
  });

  it.each([['not json'], ['{"type":"inbound"}'], ['[]']])('refuses the stored text %s', (text) => {
    expect(() => decodeBufferedFrame(text)).toThrow(
      expect.objectContaining({ code: 'corrupt_buffered_frame' }),
    );
  });
});
