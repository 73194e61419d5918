// Starts a throwaway redis-server for the example: 127.0.0.1, a free port, no persistence.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, connect as tcpConnect } from 'node:net';

/** A running redis-server and how to stop it. */
export interface LocalRedis {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** SIGTERM, then SIGKILL after 2 s; resolves once the process exited. */
  stop(): Promise<void>;
}

const BINARY = process.env['REDIS_SERVER_BIN'] ?? 'redis-server';

/**
 * Spawns `redis-server` (or `REDIS_SERVER_BIN`) on a free port and resolves once it answers `PING`.
 * Fails with a clear message when the binary cannot be found.
 */
export async function startRedisServer(): Promise<LocalRedis> {
  const port = await freePort();
  const child = spawn(
    BINARY,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--loglevel',
      'warning',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `${BINARY} was not found: install Redis (apt-get install -y redis-server, brew install redis) or set REDIS_SERVER_BIN`,
            )
          : error,
      ),
    );
    child.once('exit', (code, signal) => reject(new Error(`${BINARY} exited with ${signal ?? code}`)));
  });
  exited.catch(() => undefined); // only the start-up race reads it; a later exit is `stop()`'s
  try {
    await Promise.race([waitForPong(port), exited]);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { host: '127.0.0.1', port, stop: () => stopProcess(child) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(address)));
    });
  });
}

async function waitForPong(port: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if (await answersPing(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within 5 s`);
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
    socket.setTimeout(500, () => socket.destroy());
    socket.once('data', (reply) => {
      socket.destroy();
      resolve(reply.toString('utf8').startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined)
    return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), 2000);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
