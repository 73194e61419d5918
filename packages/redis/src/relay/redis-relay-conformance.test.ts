// Every conformance suite of the Redis backends, on one redis-server (redis-cluster.test.ts runs the
// same on a Redis Cluster).
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { type RedisServerHandle, startRedisServer } from '../../test/redis-server.js';
import { registerRedisSuites } from '../../test/redis-suites.js';

let server: RedisServerHandle | undefined;
/** A client the caller owns, shared by the vault instances (the backends leave it open). */
let shared: Redis | undefined;

beforeAll(async () => {
  server = await startRedisServer();
  shared = new Redis({ host: server.host, port: server.port });
});
afterAll(async () => {
  await shared?.quit();
  await server?.stop();
});

registerRedisSuites('one server', {
  connection: () => ({ host: server!.host, port: server!.port }),
  shared: () => shared!,
});
