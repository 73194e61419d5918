// SSE keepalive comments of the bus handler, in process: the client's `fetch` is the handler itself,
// with the raw body recorded on its way to the client.

import { describe, expect, it, vi } from 'vitest';
import { LLM_CHAT } from '../capabilities/catalogue/catalogue.js';
import { CapabilityRegistry, TimeoutError } from '../capabilities/index.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import {
  type BusHandlerOptions,
  type CapabilityHandler,
  createBusHandler,
  DEFAULT_KEEPALIVE_MS,
  staticTrust,
} from './bus-handler.js';
import { frameStream } from './call-streams.js';
import { createHearthNetClient } from './hearthnet-client.js';
import { type SseFrame, type SseItem, SseParser } from './sse.js';

const server = keyPairFromSeed(new Uint8Array(32).fill(31));
const caller = keyPairFromSeed(new Uint8Array(32).fill(32));
const community = server.nodeId;
const chat = { params: { model: 'echo' }, input: { messages: [{ role: 'user' as const, content: 'hi' }] } };

/**
 * A node whose `llm.chat` yields `t0`, then awaits `between` (given the raw SSE items sent so far
 * and the call's abort signal), then ends with `done`. Returns a client of it and what went over the
 * wire.
 */
function nodeWith(
  between: (sent: { readonly items: readonly SseItem[] }, signal: AbortSignal) => Promise<void>,
  options: Partial<BusHandlerOptions> = {},
) {
  const sent = { items: [] as SseItem[] };
  const aborted: unknown[] = [];
  const registry = new CapabilityRegistry<CapabilityHandler>({});
  registry.register(
    LLM_CHAT,
    (_request, context) => {
      context.signal.addEventListener('abort', () => aborted.push(context.signal.reason));
      return (async function* () {
        yield { event: 'token', data: { text: 't0' } };
        await between(sent, context.signal);
        yield { event: 'done', data: { tokens_out: 1, stop_reason: 'end' } };
      })();
    },
    { maxConcurrent: 4, params: { model: 'echo' } },
  );
  const handler = createBusHandler({
    identity: server,
    registry,
    community,
    trust: staticTrust({ [caller.nodeId]: 'member' }),
    ...options,
  });
  const parser = new SseParser();
  // Like a real `fetch`, an aborted signal errors the body the client reads and cancels the one the
  // handler writes (which is how a Node server learns that the client went away).
  const recording: typeof fetch = async (input, init) => {
    const { signal, ...rest } = init ?? {};
    const response = await handler(new Request(input, rest));
    const body = response.body?.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        start(controller) {
          signal?.addEventListener('abort', () => controller.error(signal.reason));
        },
        transform(chunk, controller) {
          sent.items.push(...parser.push(chunk));
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const client = createHearthNetClient({
    identity: caller,
    community,
    node: 'http://node.test',
    fetch: recording,
  });
  return { client, sent, aborted };
}

/** Resolves once `count` keepalive comments have been sent; rejects when `signal` aborts. */
function keepalives(sent: { readonly items: readonly SseItem[] }, count: number, signal: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const check = () => {
      if (sent.items.filter((item) => item.type === 'comment').length >= count) resolve();
      else if (signal.aborted) reject(signal.reason);
      else setTimeout(check, 1);
    };
    check();
  });
}

const comments = (items: readonly SseItem[]) => items.filter((item) => item.type === 'comment');
const events = (items: readonly SseItem[]) =>
  items.flatMap((item) => (item.type === 'event' ? [item.event] : []));

describe('SSE keepalives', () => {
  it('writes ": keepalive" while the handler is idle, and the client reads only the frames', async () => {
    const node = nodeWith((sent, signal) => keepalives(sent, 2, signal), { keepaliveMs: 5 });
    const stream = await node.client.call('llm.chat', chat, { stream: true });
    const frames = [];
    for await (const frame of stream) frames.push(frame);
    expect(frames).toEqual([
      { event: 'token', data: { text: 't0' } },
      { event: 'done', data: { tokens_out: 1, stop_reason: 'end' } },
    ]);
    const items = node.sent.items;
    expect(comments(items).length).toBeGreaterThanOrEqual(2);
    expect(comments(items).every((item) => item.type === 'comment' && item.text === 'keepalive')).toBe(true);
    // Between the token and done, never before the first frame or after the terminal one.
    expect(items[0]).toMatchObject({ type: 'event', event: 'token' });
    expect(items.at(-1)).toMatchObject({ type: 'event', event: 'done' });
    expect(events(items)).toEqual(['token', 'done']);
  });

  it.each([
    ['keepaliveMs: 0', { keepaliveMs: 0 }],
    ['the 15 s default', {}],
  ])('writes no comment with %s during a 30 ms pause', async (_, options) => {
    const node = nodeWith(() => new Promise((resolve) => setTimeout(resolve, 30)), options);
    const frames = [];
    for await (const frame of await node.client.call('llm.chat', chat, { stream: true })) frames.push(frame);
    expect(frames.map((frame) => frame.event)).toEqual(['token', 'done']);
    expect(comments(node.sent.items)).toEqual([]);
    expect(DEFAULT_KEEPALIVE_MS).toBe(15_000);
  });

  it('ends with one error frame when the handler throws after keepalives', async () => {
    const node = nodeWith(
      async (sent, signal) => {
        await keepalives(sent, 1, signal);
        throw new TimeoutError('the backend gave up');
      },
      { keepaliveMs: 5 },
    );
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const frame of await node.client.call('llm.chat', chat, { stream: true }))
        seen.push(frame.event);
    })().catch((error: unknown) => error);
    expect(seen).toEqual(['token']);
    expect(failure).toBeInstanceOf(TimeoutError);
    expect(events(node.sent.items)).toEqual(['token', 'error']);
    expect(comments(node.sent.items).length).toBeGreaterThanOrEqual(1);
  });

  it('stops keepalives and aborts the handler when the client goes away from an idle stream', async () => {
    const node = nodeWith(
      (_sent, signal) =>
        new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      { keepaliveMs: 5 },
    );
    const controller = new AbortController();
    const stream = await node.client.call('llm.chat', chat, { stream: true, signal: controller.signal });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const frame of stream) seen.push(frame.event);
    })().catch((error: unknown) => error);
    await keepalives(node.sent, 2, new AbortController().signal);
    controller.abort(new Error('user stopped'));
    expect(await reading).toMatchObject({ message: 'user stopped' });
    expect(seen).toEqual(['token']);
    await expect.poll(() => node.aborted.length).toBe(1);
    expect(events(node.sent.items)).toEqual(['token']);
  });

  it('clears its idle timer when the body is cancelled while waiting for a frame', async () => {
    vi.useFakeTimers();
    try {
      const closes: string[] = [];
      let returned = false;
      const silent: AsyncIterable<SseFrame> = {
        [Symbol.asyncIterator]: () => ({
          next: () => new Promise<IteratorResult<SseFrame>>(() => {}),
          return: async () => {
            returned = true;
            return { done: true, value: undefined };
          },
        }),
      };
      const body = frameStream(silent, {
        validate: (frame) => frame,
        keepaliveMs: 1000,
        onClose: (reason) => closes.push(reason),
        onError: () => {},
      });
      const reader = body.getReader();
      const decoder = new TextDecoder();
      for (let i = 0; i < 2; i += 1) {
        const read = reader.read();
        await vi.advanceTimersByTimeAsync(1000);
        expect(decoder.decode((await read).value)).toBe(': keepalive\n\n');
      }
      const pending = reader.read();
      expect(vi.getTimerCount()).toBe(1);
      await reader.cancel();
      expect(await pending).toEqual({ done: true, value: undefined });
      expect(vi.getTimerCount()).toBe(0);
      expect(closes).toEqual(['cancelled']);
      await vi.waitFor(() => expect(returned).toBe(true));
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([-1, 1.5, 2 ** 31, Number.NaN])('refuses keepaliveMs %s', (keepaliveMs) => {
    const registry = new CapabilityRegistry<CapabilityHandler>({});
    expect(() =>
      createBusHandler({ identity: server, registry, trust: staticTrust({}), keepaliveMs }),
    ).toThrow(expect.objectContaining({ code: 'invalid_wire_options' }));
  });
});
