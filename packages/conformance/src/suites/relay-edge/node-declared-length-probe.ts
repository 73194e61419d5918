// Node only (node:http): not exported from the package root. The conformance CLI passes it to
// relayEdgeLiveSuite as its `declaredLengthProbe`.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ConformanceError } from '../../errors.js';
import type { DeclaredLengthProbe } from './relay-edge-live-suite.js';

/**
 * A {@link DeclaredLengthProbe} over `node:http(s)`: sends the request line and headers only, waits
 * for the status (at most `timeoutMs`, default 10 s) and drops the connection. Rejects with
 * `declared_length_probe_failed` {@link ConformanceError} when no status comes.
 */
export function nodeDeclaredLengthProbe(timeoutMs = 10_000): DeclaredLengthProbe {
  return (url, headers) =>
    new Promise<number>((resolve, reject) => {
      const target = new URL(url);
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const request = send(target, { method: 'POST', headers: { ...headers } });
      const timer = setTimeout(() => {
        request.destroy();
        reject(
          new ConformanceError(
            'declared_length_probe_failed',
            `no answer to the announced upload within ${timeoutMs} ms`,
            { retryable: true },
          ),
        );
      }, timeoutMs);
      request.on('response', (response) => {
        clearTimeout(timer);
        resolve(response.statusCode ?? 0);
        response.resume();
        request.destroy();
      });
      request.on('error', (error) => {
        clearTimeout(timer);
        reject(
          new ConformanceError('declared_length_probe_failed', `the announced upload to ${url} failed`, {
            retryable: true,
            cause: error,
          }),
        );
      });
      request.flushHeaders();
    });
}
