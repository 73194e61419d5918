import {
  capabilityVaultSuite,
  enrollmentTokenStoreSuite,
  gatewaySecretStoreSuite,
  inboundBufferSuite,
  policyStoreSuite,
  provisionRegistrySuite,
  relayBusSuite,
} from '@agentwire/conformance';
import { registerSuite } from '@agentwire/conformance/vitest';
import { afterAll, describe, it } from 'vitest';
import {
  RedisCapabilityVault,
  RedisEnrollmentTokenStore,
  RedisGatewaySecretStore,
  RedisInboundBuffer,
  RedisPolicyStore,
  RedisProvisionRegistry,
  RedisRelayBus,
} from '../src/relay/index.js';
import type { RedisRelayBackendOptions } from '../src/relay/redis-connection.js';

/** What the suites connect to: a function, as the server or cluster starts after registration. */
export interface RedisSuiteTarget {
  /** Connection options, so that each backend a suite creates opens its own connection. */
  readonly connection: () => RedisRelayBackendOptions['redis'];
  /** A client the caller owns (one server's `Redis` or a `Cluster`), shared by the vault instances. */
  readonly shared: () => RedisRelayBackendOptions['redis'];
}

/**
 * Registers every conformance suite of the Redis backends against `target`: the relay runtime's bus,
 * buffer, vault and gateway secrets, and the edge's enrollment tokens, provision registry and policies.
 * Every backend a suite creates opens its own connection, as each connector instance does (shared
 * backend); the suites close them.
 */
export function registerRedisSuites(label: string, target: RedisSuiteTarget): void {
  const hooks = { describe, it, afterAll };
  const release = (store: { close(): Promise<void> }) => store.close();
  /** One fake clock for every token store (all instances read the same clock), advanced by the suite. */
  let clock = 1_750_000_000_000;
  describe(`Redis backends conformance (${label})`, () => {
    // Redis PUBLISH and SPUBLISH count subscribed connections (bus instances), not listeners: see RedisRelayBus.
    registerSuite(
      relayBusSuite({
        create: () => new RedisRelayBus({ redis: target.connection(), onListenerError: () => undefined }),
        sharedBackend: true,
      }),
      hooks,
      { expectedFailures: ['relay-runtime.bus.publish.counts-every-subscription'] },
    );
    registerSuite(
      inboundBufferSuite({
        create: () => new RedisInboundBuffer({ redis: target.connection() }),
        sharedBackend: true,
      }),
      hooks,
    );
    registerSuite(
      capabilityVaultSuite({
        create: () => new RedisCapabilityVault({ redis: target.shared() }),
        sharedBackend: true,
      }),
      hooks,
    );
    // Gateway ids are fresh per case, so the suite needs no flush between cases.
    registerSuite(
      gatewaySecretStoreSuite({
        create: (now) => new RedisGatewaySecretStore({ redis: target.connection(), now }),
        sharedBackend: true,
      }),
      hooks,
    );
    registerSuite(
      enrollmentTokenStoreSuite({
        create: () => new RedisEnrollmentTokenStore({ redis: target.connection(), now: () => clock }),
        release,
        elapse: (ms) => {
          clock += ms;
        },
        sharedBackend: true,
      }),
      hooks,
    );
    registerSuite(
      enrollmentTokenStoreSuite({
        create: () => new RedisEnrollmentTokenStore({ redis: target.connection(), keyPrefix: 'real-time:' }),
        release,
        shortTtlMs: 50,
        sharedBackend: true,
      }),
      { ...hooks, describe: (name, body) => describe(`${name} (real time)`, body) },
    );
    registerSuite(
      provisionRegistrySuite({
        create: () => new RedisProvisionRegistry({ redis: target.connection() }),
        release,
        sharedBackend: true,
      }),
      hooks,
    );
    registerSuite(
      policyStoreSuite({
        create: () => new RedisPolicyStore({ redis: target.connection() }),
        release,
        sharedBackend: true,
      }),
      hooks,
    );
  });
}
