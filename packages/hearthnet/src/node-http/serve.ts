import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type NodeListenerOptions, toNodeListener, type WebHandler } from './node-listener.js';

/** Options of {@link serveBusHandler}. */
export interface ServeOptions extends NodeListenerOptions {
  /** The port; `0` (default) picks a free one. */
  readonly port?: number;
  /** The interface to bind. Default `127.0.0.1`. */
  readonly host?: string;
}

/** A running server: its base URL (what a client's `node` option takes) and how to stop it. */
export interface ServedBusHandler {
  readonly server: Server;
  /** `http://<host>:<port>`. */
  readonly url: string;
  /** Stops accepting connections, closes the open ones and resolves when the server is closed. */
  close(): Promise<void>;
}

/**
 * Serves a web-standard handler (such as a bus handler) over `node:http`.
 *
 * @example
 * const node = await serveBusHandler(createBusHandler(options), { port: 7080 });
 * const client = createHearthNetClient({ identity, community, node: node.url });
 * await node.close();
 */
export async function serveBusHandler(
  handler: WebHandler,
  options: ServeOptions = {},
): Promise<ServedBusHandler> {
  const server = createServer(toNodeListener(handler, options));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
