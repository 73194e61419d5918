import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Socket, connect as tcpConnect } from 'node:net';

/** A throwaway `redis-server` on 127.0.0.1, without persistence. */
export interface RedisServerHandle {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** The server's process id. */
  readonly pid: number;
  /** Whether the process has not exited (yet). */
  readonly running: boolean;
  /** Stops the server (SIGTERM, then SIGKILL) and waits for it to exit. */
  stop(): Promise<void>;
  /** Kills the server at once (SIGKILL), as a crash would, and waits for it to exit. */
  kill(): Promise<void>;
}

const BINARY = process.env['REDIS_SERVER_BIN'] ?? '/usr/bin/redis-server';
const START_TIMEOUT_MS = 5000;
const STOP_TIMEOUT_MS = 2000;
const START_ATTEMPTS = 3;

/**
 * Starts `redis-server` on a free port of 127.0.0.1 with no RDB snapshots and no AOF, and resolves
 * once it answers `PING`. Fails loudly when the binary is missing (`apt-get install -y redis-server`,
 * or set `REDIS_SERVER_BIN`): these tests never skip. `port` restarts a killed server on its port.
 */
export async function startRedisServer(
  options: { readonly port?: number; readonly extraArgs?: readonly string[] } = {},
): Promise<RedisServerHandle> {
  if (!existsSync(BINARY)) {
    throw new Error(
      `redis-server not found at ${BINARY}: install it (apt-get install -y redis-server) or set REDIS_SERVER_BIN`,
    );
  }
  let lastError: unknown;
  // A free port can be taken between probing it and the server binding it; try again on another.
  for (let attempt = 0; attempt < START_ATTEMPTS; attempt += 1) {
    const port = options.port ?? (await freePort());
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
        ...(options.extraArgs ?? []),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    try {
      await waitForPong(child, port);
      return {
        host: '127.0.0.1',
        port,
        pid: child.pid as number,
        get running() {
          return child.exitCode === null && child.signalCode === null;
        },
        stop: () => stopProcess(child),
        kill: () => stopProcess(child, 'SIGKILL'),
      };
    } catch (error) {
      await stopProcess(child);
      lastError = new Error(`redis-server on port ${port} did not start: ${String(error)} ${stderr}`.trim());
    }
  }
  throw lastError;
}

/**
 * A port of 127.0.0.1 that is free now; with `alsoFree`, one whose `port + alsoFree` is free too (a
 * cluster node's bus port), below 55536.
 */
export async function freePort(options: { readonly alsoFree?: number } = {}): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = await listenOnce(0);
    if (options.alsoFree === undefined) return port;
    if (port + options.alsoFree > 65_535) continue;
    try {
      await listenOnce(port + options.alsoFree);
      return port;
    } catch {
      // Taken: another port.
    }
  }
  throw new Error('no free port pair found');
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(port, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(address)));
    });
  });
}

async function waitForPong(child: ChildProcess, port: number): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  let exited: string | undefined;
  child.once('exit', (code, signal) => {
    exited = `exited with ${signal ?? code}`;
  });
  child.once('error', (error) => {
    exited = error.message;
  });
  while (Date.now() < deadline) {
    if (exited !== undefined) throw new Error(exited);
    if (await answersPing(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no PONG within ${START_TIMEOUT_MS} ms`);
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    let reply = '';
    const socket: Socket = tcpConnect({ host: '127.0.0.1', port }, () => socket.write('PING\r\n'));
    socket.setTimeout(500);
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      if (reply.includes('\r\n')) {
        socket.destroy();
        resolve(reply.startsWith('+PONG'));
      }
    });
    socket.on('timeout', () => socket.destroy());
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(false));
  });
}

function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    child.kill(signal);
  });
}
