import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { edgeErrorResponse, limitedRequestBody, readBodyWithLimit } from './http.js';

/** A request whose body yields `chunks` and counts how many of them were pulled. */
function streamingRequest(chunks: readonly Uint8Array[], headers: Record<string, string> = {}) {
  const state = { pulled: 0, cancelled: undefined as unknown };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[state.pulled];
        if (chunk === undefined) {
          controller.close();
          return;
        }
        state.pulled += 1;
        controller.enqueue(chunk);
      },
      cancel(reason) {
        state.cancelled = reason;
      },
    },
    { highWaterMark: 0 },
  );
  const request = new Request('http://edge.test/upload', { method: 'POST', body, headers, duplex: 'half' });
  return { request, state };
}

describe('readBodyWithLimit', () => {
  it('reads a body up to and including the limit', async () => {
    const { request } = streamingRequest([new Uint8Array([1, 2]), new Uint8Array([3, 4])]);
    expect(await readBodyWithLimit(request, 4)).toEqual(new Uint8Array([1, 2, 3, 4]));
  });

  it('reads an absent body as empty', async () => {
    expect(await readBodyWithLimit(new Request('http://edge.test/'), 10)).toEqual(new Uint8Array(0));
  });

  it('stops at the chunk that passes the limit, cancels the source and reads no further', async () => {
    const chunks = [new Uint8Array(3), new Uint8Array(3), new Uint8Array(3), new Uint8Array(3)];
    const { request, state } = streamingRequest(chunks);
    const refusal = readBodyWithLimit(request, 5);
    await expect(refusal).rejects.toThrow(expect.objectContaining({ code: 'edge_http_payload_too_large' }));
    await expect(refusal).rejects.toMatchObject({ details: { maxBytes: 5 } });
    const answer = edgeErrorResponse(await refusal.catch((error: unknown) => error));
    expect(answer.status).toBe(413);
    expect(await answer.json()).toMatchObject({ error: 'payload_too_large' });
    expect(state.pulled).toBe(2);
    expect(state.cancelled).toMatchObject({ code: 'edge_http_payload_too_large' });
  });

  it('refuses a Content-Length above the limit before reading a byte', async () => {
    const { request, state } = streamingRequest([new Uint8Array(1)], { 'content-length': '11' });
    await expect(readBodyWithLimit(request, 10)).rejects.toThrow(/announces 11 bytes/);
    expect(state.pulled).toBe(0);
  });

  it('enforces the limit on the bytes even when Content-Length understates them', async () => {
    const { request } = streamingRequest([new Uint8Array(6), new Uint8Array(6)], { 'content-length': '4' });
    await expect(readBodyWithLimit(request, 10)).rejects.toThrow(
      expect.objectContaining({ code: 'edge_http_payload_too_large' }),
    );
  });

  it('refuses unusable arguments with a typed error', async () => {
    await expect(readBodyWithLimit('nope' as unknown as Request, 1)).rejects.toThrow(
      expect.objectContaining({ code: 'edge_http_invalid_argument' }),
    );
    await expect(readBodyWithLimit(new Request('http://edge.test/'), -1)).rejects.toThrow(
      expect.objectContaining({ code: 'edge_http_invalid_argument' }),
    );
    await expect(readBodyWithLimit(new Request('http://edge.test/'), 1.5)).rejects.toThrow(/maxBytes/);
  });

  it('accepts exactly the bodies within the limit and never pulls past the first chunk over it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 12 }),
        fc.integer({ min: 0, max: 200 }),
        async (sizes, limit) => {
          const chunks = sizes.map((size, index) => new Uint8Array(size).fill(index));
          const { request, state } = streamingRequest(chunks);
          const total = sizes.reduce((sum, size) => sum + size, 0);
          if (total <= limit) {
            const body = await readBodyWithLimit(request, limit);
            expect(body.byteLength).toBe(total);
            return;
          }
          await expect(readBodyWithLimit(request, limit)).rejects.toThrow(
            expect.objectContaining({ code: 'edge_http_payload_too_large' }),
          );
          let running = 0;
          const firstOver = sizes.findIndex((size) => {
            running += size;
            return running > limit;
          });
          expect(state.pulled).toBe(firstOver + 1);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('limitedRequestBody', () => {
  it('passes chunks through only as they are read', async () => {
    const { request, state } = streamingRequest([new Uint8Array([1]), new Uint8Array([2])]);
    const reader = limitedRequestBody(request, 10).getReader();
    expect(state.pulled).toBe(0);
    expect((await reader.read()).value).toEqual(new Uint8Array([1]));
    expect(state.pulled).toBe(1);
    await reader.cancel('done');
    expect(state.cancelled).toBe('done');
  });

  it('throws at once for a Content-Length above the limit and cancels the body', async () => {
    const { request, state } = streamingRequest([new Uint8Array(1)], { 'content-length': '26214401' });
    expect(() => limitedRequestBody(request, 26_214_400)).toThrow(
      expect.objectContaining({ code: 'edge_http_payload_too_large' }),
    );
    await Promise.resolve();
    expect(state.pulled).toBe(0);
  });
});
