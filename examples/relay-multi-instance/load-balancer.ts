// A TCP load balancer in front of the connector instances, as a gateway sees production: one fixed
// address, and connections land on whichever instance it routes to at the time.
import { createServer, type Socket, connect as tcpConnect } from 'node:net';

/** A running balancer; new connections go to the instance on the port last given to `routeTo`. */
export interface LoadBalancer {
  readonly port: number;
  routeTo(port: number): void;
  /** Stops listening and drops every proxied connection. */
  close(): Promise<void>;
}

/** Listens on a free port of 127.0.0.1 and proxies each connection to `targetPort`. */
export async function startLoadBalancer(targetPort: number): Promise<LoadBalancer> {
  let target = targetPort;
  const live = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = tcpConnect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      live.add(socket);
      socket.once('close', () => live.delete(socket));
    }
    // Either side ending or failing ends the other: an instance that dies drops its gateways.
    client.pipe(upstream).on('error', () => client.destroy());
    upstream.pipe(client).on('error', () => upstream.destroy());
    client.once('error', () => upstream.destroy());
    upstream.once('error', () => client.destroy());
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the load balancer has no TCP port');
  return {
    port: address.port,
    routeTo(port) {
      target = port;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of live) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
