// HearthNetStream.close on a stream whose frames are not schema-checked (the reference wire's untyped frames).
import { describe, expect, it } from 'vitest';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { createHearthNetClient } from '../wire/hearthnet-client.js';
import { referenceWire } from './reference-wire.js';

const caller = keyPairFromSeed(new Uint8Array(32).fill(21));
const server = keyPairFromSeed(new Uint8Array(32).fill(22));
const community = keyPairFromSeed(new Uint8Array(32).fill(23)).nodeId;
const encoder = new TextEncoder();

/**
 * A fetch answering with an SSE stream that sends one `token` frame and then only keepalive comments,
 * never ending; like a real fetch, aborting the request's signal errors the body.
 */
function silentStreamFetch(): { fetch: typeof fetch; cancelled: () => boolean } {
  let cancelled = false;
  const fetchFunction = (async (_url: unknown, init?: RequestInit) => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('event: token\ndata: {"delta":"hi"}\n\n'));
        timer = setInterval(() => controller.enqueue(encoder.encode(': keepalive\n\n')), 5);
        init?.signal?.addEventListener('abort', () => {
          clearInterval(timer);
          cancelled = true;
          controller.error(init.signal?.reason);
        });
      },
      cancel() {
        clearInterval(timer);
        cancelled = true;
      },
    });
    return new Response(body, {
      status: 200,
      headers: { 'Content-Type': 'text/event-stream', 'X-HearthNet-From': server.nodeId },
    });
  }) as typeof fetch;
  return { fetch: fetchFunction, cancelled: () => cancelled };
}

describe('HearthNetStream.close', () => {
  it('ends a stream that has gone silent, even while a read is pending', async () => {
    const fake = silentStreamFetch();
    const client = createHearthNetClient({
      identity: caller,
      community,
      node: 'http://127.0.0.1:9',
      fetch: fake.fetch,
      wire: referenceWire,
    });
    const stream = await client.call('experimental.echo', { params: {}, input: {} }, { stream: true });
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    const pending = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await stream.close();
    await expect(pending).resolves.toEqual({ done: true, value: undefined });
    expect(fake.cancelled()).toBe(true);
  });

  it('closes a stream that was never iterated', async () => {
    const fake = silentStreamFetch();
    const client = createHearthNetClient({
      identity: caller,
      community,
      node: 'http://127.0.0.1:9',
      fetch: fake.fetch,
      wire: referenceWire,
    });
    const stream = await client.call('experimental.echo', { params: {}, input: {} }, { stream: true });
    await stream.close();
    expect(fake.cancelled()).toBe(true);
  });
});
