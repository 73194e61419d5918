import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { freePort, type RedisServerHandle, startRedisServer } from './redis-server.js';

const run = promisify(execFile);
const CLI = process.env['REDIS_CLI_BIN'] ?? 'redis-cli';
/** How long a master may be silent before its replica takes over (Redis's default is 15 s). */
export const CLUSTER_NODE_TIMEOUT_MS = 1000;
const READY_TIMEOUT_MS = 20_000;

/** A throwaway Redis Cluster on 127.0.0.1: three masters, one replica each, no persistence. */
export interface RedisClusterHandle {
  /** Every node, masters first as `redis-cli --cluster create` was given them. */
  readonly nodes: readonly RedisServerHandle[];
  /** Where a client starts: every node's host and port. */
  readonly startupNodes: readonly { readonly host: string; readonly port: number }[];
  /** A new ioredis `Cluster` client of it (the caller closes it). */
  connect(): Cluster;
  /** The node that is master of the slot of `key` now. */
  masterOf(key: string): Promise<RedisServerHandle>;
  /** Resolves once every slot is served and every node agrees (after a failover, say). */
  waitUntilHealthy(): Promise<void>;
  /** Stops every node and removes their cluster files. */
  stop(): Promise<void>;
}

/**
 * Starts six `redis-server` processes in cluster mode on free ports of 127.0.0.1 and joins them with
 * `redis-cli --cluster create … --cluster-replicas 1` (both from the Debian `redis-server` and
 * `redis-tools` packages, which `.ci/run` installs). The node timeout is short, so a killed master is
 * replaced within a few seconds.
 */
export async function startRedisCluster(): Promise<RedisClusterHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'agentwire-redis-cluster-'));
  const nodes: RedisServerHandle[] = [];
  try {
    for (let index = 0; index < 6; index += 1) {
      // The cluster bus listens on port + 10000: both must be free.
      const port = await freePort({ alsoFree: 10_000 });
      nodes.push(
        await startRedisServer({
          port,
          extraArgs: [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            join(dir, `nodes-${port}.conf`),
            '--cluster-node-timeout',
            String(CLUSTER_NODE_TIMEOUT_MS),
            // A replica may take over whatever its last contact with the master (no data age limit),
            // and its first full sync starts at once (not after Redis's default 5 s).
            '--cluster-replica-validity-factor',
            '0',
            '--repl-diskless-sync-delay',
            '0',
            '--dir',
            dir,
          ],
        }),
      );
    }
    await run(CLI, [
      '--cluster',
      'create',
      ...nodes.map((node) => `${node.host}:${node.port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    ]);
  } catch (error) {
    await Promise.all(nodes.map((node) => node.stop()));
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const handle: RedisClusterHandle = {
    nodes,
    startupNodes: nodes.map(({ host, port }) => ({ host, port })),
    connect: () => new Cluster(nodes.map(({ host, port }) => ({ host, port }))),
    masterOf: async (key) => {
      const probe = await liveNode(nodes);
      try {
        const slot = (await probe.call('CLUSTER', 'KEYSLOT', key)) as number;
        const shards = (await probe.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
        const owner = shards.find(([first, last]) => slot >= first && slot <= last);
        const port = owner?.[2][1];
        const node = nodes.find((candidate) => candidate.port === port);
        if (node === undefined) throw new Error(`no master serves slot ${slot} of ${key}`);
        return node;
      } finally {
        probe.disconnect();
      }
    },
    waitUntilHealthy: () => waitUntilHealthy(nodes),
    stop: async () => {
      await Promise.all(nodes.map((node) => node.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await handle.waitUntilHealthy();
  } catch (error) {
    await handle.stop();
    throw error;
  }
  return handle;
}

async function liveNode(nodes: readonly RedisServerHandle[]): Promise<Redis> {
  for (const node of nodes) {
    const client = new Redis({
      host: node.host,
      port: node.port,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return client;
    } catch {
      client.disconnect();
    }
  }
  throw new Error('no node of the cluster answers');
}

/** Every live node reports `cluster_state:ok` and the same slots, each slot with one live master. */
async function waitUntilHealthy(nodes: readonly RedisServerHandle[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const views = await Promise.all(
        nodes
          .filter((node) => node.running)
          .map(async (node) => {
            const client = new Redis({ host: node.host, port: node.port, maxRetriesPerRequest: 0 });
            client.on('error', () => undefined);
            try {
              const info = (await client.call('CLUSTER', 'INFO')) as string;
              const slots = (await client.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
              const replication = (await client.call('INFO', 'replication')) as string;
              const synced =
                !replication.includes('role:slave') || replication.includes('master_link_status:up');
              return { info, slots, synced };
            } finally {
              client.disconnect();
            }
          }),
      );
      const ok = views.every(({ info }) => info.includes('cluster_state:ok'));
      const live = new Set(nodes.filter((node) => node.running).map((node) => node.port));
      const maps = views.map(({ slots }) =>
        JSON.stringify(
          slots
            .map(([first, last, [, port]]) => [first, last, port])
            .sort((a, b) => Number(a[0]) - Number(b[0])),
        ),
      );
      const covered = views.every(
        ({ slots }) =>
          slots.reduce(
            (sum, [first, lastSlot, [, port]]) => sum + (live.has(port) ? lastSlot - first + 1 : 0),
            0,
          ) === 16_384,
      );
      // Every replica has finished its sync, so that it can take over.
      const synced = views.every((view) => view.synced);
      if (ok && covered && synced && new Set(maps).size === 1) return;
      last = `state ok: ${ok}, every slot on a live master: ${covered}, views agree: ${new Set(maps).size === 1}, replicas synced: ${synced}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the Redis cluster did not become healthy within ${READY_TIMEOUT_MS} ms (${last})`);
}
