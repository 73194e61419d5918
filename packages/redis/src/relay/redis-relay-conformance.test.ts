import { capabilityVaultSuite, inboundBufferSuite, relayBusSuite } from '@agentwire/conformance';
import { registerSuite } from '@agentwire/conformance/vitest';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type RedisServerHandle, startRedisServer } from '../../test/redis-server.js';
import { RedisCapabilityVault } from './redis-capability-vault.js';
import { RedisInboundBuffer } from './redis-inbound-buffer.js';
import { RedisRelayBus } from './redis-relay-bus.js';

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

const connection = () => ({ host: server!.host, port: server!.port });

describe('relay runtime conformance on Redis', () => {
  // Redis PUBLISH counts subscribed connections (bus instances), not listeners: see RedisRelayBus.
  registerSuite(
    relayBusSuite({
      create: () => new RedisRelayBus({ redis: connection(), onListenerError: () => undefined }),
      sharedBackend: true,
    }),
    { describe, it, afterAll },
    { expectedFailures: ['relay-runtime.bus.publish.counts-every-subscription'] },
  );
  registerSuite(
    inboundBufferSuite({
      create: () => new RedisInboundBuffer({ redis: connection() }),
      sharedBackend: true,
    }),
    { describe, it, afterAll },
  );
  registerSuite(
    capabilityVaultSuite({ create: () => new RedisCapabilityVault({ redis: shared! }), sharedBackend: true }),
    { describe, it, afterAll },
  );
});
