import { enrollmentTokenStoreSuite, policyStoreSuite, provisionRegistrySuite } from '@agentwire/conformance';
import { registerSuite } from '@agentwire/conformance/vitest';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type RedisServerHandle, startRedisServer } from '../../test/redis-server.js';
import { RedisEnrollmentTokenStore, RedisPolicyStore, RedisProvisionRegistry } from './redis-edge-stores.js';

let server: RedisServerHandle | undefined;

beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

// Every store the suites create opens its own connection, as each connector instance does; the
// suites close them through `release`.
const connection = () => ({ host: server!.host, port: server!.port });
const release = (store: { close(): Promise<void> }) => store.close();

/** One fake clock for every token store (all instances read the same clock), advanced by the suite. */
let clock = 1_750_000_000_000;

describe('relay edge store conformance on Redis', () => {
  registerSuite(
    enrollmentTokenStoreSuite({
      create: () => new RedisEnrollmentTokenStore({ redis: connection(), now: () => clock }),
      release,
      elapse: (ms) => {
        clock += ms;
      },
      sharedBackend: true,
    }),
    { describe, it, afterAll },
  );
  registerSuite(
    enrollmentTokenStoreSuite({
      create: () => new RedisEnrollmentTokenStore({ redis: connection(), keyPrefix: 'real-time:' }),
      release,
      shortTtlMs: 50,
      sharedBackend: true,
    }),
    { describe: (name, body) => describe(`${name} (real time)`, body), it, afterAll },
  );
  registerSuite(
    provisionRegistrySuite({
      create: () => new RedisProvisionRegistry({ redis: connection() }),
      release,
      sharedBackend: true,
    }),
    { describe, it, afterAll },
  );
  registerSuite(
    policyStoreSuite({
      create: () => new RedisPolicyStore({ redis: connection() }),
      release,
      sharedBackend: true,
    }),
    { describe, it, afterAll },
  );
});
