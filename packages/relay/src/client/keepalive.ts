import type WebSocket from 'ws';

/** How often newer gateways ping the connector (`websockets`' `ping_interval=30`). */
export const DEFAULT_PING_INTERVAL_MS = 30_000;
/** How long newer gateways wait for a pong before they drop the connection (`ping_timeout=60`). */
export const DEFAULT_PING_TIMEOUT_MS = 60_000;

/**
 * Pings `socket` every `intervalMs` and terminates it when a pong is overdue by `timeoutMs`, so a
 * connection that died without a TCP error (a dropped NAT entry, a frozen peer) ends and the transport
 * re-dials, instead of waiting for the operating system to notice. While `paused()` (this side holds
 * its reading back) no verdict is taken. Returns the function that stops it;
 * it also stops by itself when the socket closes.
 */
export function startKeepalive(
  socket: WebSocket,
  intervalMs: number,
  timeoutMs: number,
  paused: () => boolean = () => false,
): () => void {
  let awaitingSince: number | undefined;
  const onPong = () => {
    awaitingSince = undefined;
  };
  const timer = setInterval(() => {
    // While this side does not read, a pong could not be seen: the flow-control deadlines judge then.
    if (paused()) {
      awaitingSince = undefined;
      return;
    }
    const now = Date.now();
    if (awaitingSince !== undefined) {
      if (now - awaitingSince >= timeoutMs) {
        stop();
        socket.terminate();
      }
      return;
    }
    awaitingSince = now;
    socket.ping();
  }, intervalMs);
  timer.unref?.();
  const stop = () => {
    clearInterval(timer);
    socket.off('pong', onPong);
    socket.off('close', stop);
  };
  socket.on('pong', onPong);
  socket.once('close', stop);
  return stop;
}
