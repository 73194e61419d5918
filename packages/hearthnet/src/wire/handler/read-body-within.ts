import { BadRequestError } from '../../capabilities/index.js';

/**
 * A request body read whole, but never more than `maxBytes` of it: a larger `Content-Length` is
 * refused before reading, and a body without one (chunked, or a `text/event-stream` that the node
 * adapter streams) is cancelled as soon as it passes the limit, so memory stays bounded either way.
 *
 * @throws {BadRequestError} when the body exceeds `maxBytes`.
 */
export async function readBodyWithin(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('Content-Length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function tooLarge(maxBytes: number): BadRequestError {
  return new BadRequestError(`the request body exceeds ${maxBytes} bytes`);
}
