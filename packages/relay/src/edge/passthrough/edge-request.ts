import { readBodyWithLimit } from '../http/index.js';
import type { EdgeRequest } from '../verifiers/index.js';

/** The request as the verifiers take it: its body read whole, refused past `maxBytes` (413). */
export async function readEdgeRequest(request: Request, maxBytes: number): Promise<EdgeRequest> {
  const body = await readBodyWithLimit(request, maxBytes);
  return { method: request.method, url: request.url, headers: request.headers, body };
}

/** The path and query of a request URL, as the provider called it. */
export function pathAndQuery(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}
