import { InMemoryBlobStore } from '@agentwire/hearthnet/blobs';
import { InMemoryEventStore } from '@agentwire/hearthnet/events';
import type { CapabilityVault } from '@agentwire/relay';
import {
  InMemoryCapabilityVault,
  InMemoryGatewaySecretStore,
  InMemoryInboundBuffer,
  InMemoryRelayBus,
} from '@agentwire/relay/testing';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConformanceError } from '../errors.js';
import { runSuite } from '../run-suite.js';
import { noopUnderTest } from '../suites/agent-connector/agentwire-connectors.js';
import { filesystemSkillStoreUnderTest } from '../suites/skill-store/filesystem-store-under-test.js';
import type { ConformanceSubjects } from './subject-suites.js';
import { subjectSuites } from './subject-suites.js';

const quietBus = () => new InMemoryRelayBus({ onListenerError: () => undefined });

/** Descriptions `subjectSuites` refuses, with (a part of) the message it gives. */
const REFUSALS: [unknown, string][] = [
  [
    undefined,
    'm must describe implementations by interface (an object with agentConnectors, skillStores, dataStores, eventStores, blobStores, relayBuses, inboundBuffers, capabilityVaults, gatewaySecretStores, enrollmentTokenStores, provisionRegistries, policyStores, platformAdapters), got undefined',
  ],
  [
    [],
    'm must describe implementations by interface (an object with agentConnectors, skillStores, dataStores, eventStores, blobStores, relayBuses, inboundBuffers, capabilityVaults, gatewaySecretStores, enrollmentTokenStores, provisionRegistries, policyStores, platformAdapters), got an array',
  ],
  [Promise.resolve({}), 'got a promise (export the resolved value: top-level await works)'],
  [{}, 'm names no implementation'],
  [{ skillStores: [] }, 'm names no implementation'],
  [{ eventstores: [] }, 'm names unknown interface eventstores (known: agentConnectors,'],
  [{ skillStores: { name: 's', factory: () => null } }, 'm: skillStores must be an array, got an object'],
  [
    { dataStores: ['sqlite'] },
    'm: dataStores[0] must be an object with a name and a create function, got "sqlite"',
  ],
  [
    { dataStores: [{ create: () => null }] },
    'm: dataStores[0].name must be a non-empty string, got undefined',
  ],
  [
    { dataStores: [{ name: ' ', create: () => null }] },
    'm: dataStores[0].name must be a non-empty string, got " "',
  ],
  [{ relayBuses: [{ name: 'bus' }] }, 'm: relayBuses[0] (bus) needs a create function'],
  [
    { relayBuses: [{ name: 'bus', factory: quietBus }] },
    'm: relayBuses[0] (bus) has an unknown field factory (it takes create, sharedBackend, deliveryTimeoutMs, dispose)',
  ],
  [
    { skillStores: [{ name: 's', create: 'new Store()' }] },
    'm: skillStores[0] (s).create must be a function, got "new Store()"',
  ],
  [
    { relayBuses: [{ name: 'bus', create: quietBus, sharedBackend: 'yes' }] },
    'm: relayBuses[0] (bus).sharedBackend must be a boolean, got "yes"',
  ],
  [
    { capabilityVaults: [{ name: 'v', create: () => new InMemoryCapabilityVault(), shortTtlMs: 0 }] },
    'm: capabilityVaults[0] (v).shortTtlMs must be a positive number of milliseconds, got 0',
  ],
  [
    {
      inboundBuffers: [
        { name: 'b', create: () => new InMemoryInboundBuffer() },
        { name: 'b', create: () => new InMemoryInboundBuffer() },
      ],
    },
    'm: inboundBuffers[1] repeats the name "b"',
  ],
];

describe('subjectSuites', () => {
  it('binds every entry to its interface suite, in interface order, and the implementations pass', async () => {
    let now = 1_000_000;
    const subjects: ConformanceSubjects = {
      capabilityVaults: [
        {
          name: 'vault, fake clock',
          create: () => new InMemoryCapabilityVault({ now: () => now }),
          elapse: (ms) => {
            now += ms;
          },
        },
      ],
      relayBuses: [{ name: 'bus', create: quietBus, deliveryTimeoutMs: 500 }],
      inboundBuffers: [{ name: 'buffer', create: () => new InMemoryInboundBuffer() }],
      eventStores: [{ name: 'events', create: () => new InMemoryEventStore() }],
      skillStores: [{ name: 'skills', create: filesystemSkillStoreUnderTest }],
      agentConnectors: [{ name: 'noop', create: noopUnderTest }],
      gatewaySecretStores: [
        { name: 'secrets', create: (clock) => new InMemoryGatewaySecretStore({ now: clock }) },
      ],
      blobStores: [{ name: 'blobs', create: (options) => new InMemoryBlobStore(options) }],
    };
    const rows = subjectSuites(subjects, 'test');
    expect(rows.map((r) => [r.suite.name, r.subject])).toEqual([
      ['agent-connector.contract', 'noop'],
      ['skill-store.contract', 'skills'],
      ['hearthnet.event-store', 'events'],
      ['hearthnet.blob-store', 'blobs'],
      ['relay-runtime.bus', 'bus'],
      ['relay-runtime.buffer', 'buffer'],
      ['relay-runtime.vault', 'vault, fake clock'],
      ['relay-runtime.secrets', 'secrets'],
    ]);
    for (const { suite, subject } of rows) {
      const report = await runSuite(suite, { subject });
      expect(report.results.filter((r) => r.status === 'failed')).toEqual([]);
      expect(report.ok).toBe(true);
    }
  });

  it('passes the entry to the suite: its options take effect and its factory runs only when the suite runs', async () => {
    let created = 0;
    const disposed: string[] = [];
    const [row] = subjectSuites({
      inboundBuffers: [
        {
          name: 'counted',
          create: () => {
            created += 1;
            return new InMemoryInboundBuffer();
          },
          dispose: () => void disposed.push('counted'),
        },
      ],
    });
    expect(created).toBe(0);
    await runSuite(row!.suite);
    expect(created).toBeGreaterThan(0);
    expect(disposed).toEqual(['counted']);
  });

  it('reports a broken implementation as failed cases', async () => {
    // Binds and revokes, but never finds a binding again.
    const forgetful = (): CapabilityVault => {
      const vault = new InMemoryCapabilityVault();
      return {
        bind: (binding) => vault.bind(binding),
        resolve: async () => ({ found: false, reason: 'absent' }),
        revoke: (tenant, sessionKey, kind) => vault.revoke(tenant, sessionKey, kind),
        close: () => vault.close(),
      };
    };
    const [row] = subjectSuites({
      capabilityVaults: [{ name: 'forgetful', create: forgetful, shortTtlMs: 20 }],
    });
    const report = await runSuite(row!.suite);
    expect(report.ok).toBe(false);
    expect(report.results.find((r) => r.id === 'relay-runtime.vault.resolve.bound')?.status).toBe('failed');
  });

  it.each(REFUSALS)('refuses %o', (subjects, message) => {
    expect(() => subjectSuites(subjects, 'm')).toThrow(
      expect.objectContaining({
        code: 'invalid_subjects',
        message: expect.stringContaining(message),
      }),
    );
  });

  it('answers any value with rows or an invalid_subjects ConformanceError, never another error', () => {
    const entry = fc.record(
      {
        name: fc.oneof(fc.string(), fc.integer()),
        factory: fc.oneof(
          fc.constant(() => null),
          fc.string(),
        ),
        create: fc.oneof(
          fc.constant(() => null),
          fc.boolean(),
        ),
        dispose: fc.anything(),
        sharedBackend: fc.anything(),
      },
      { requiredKeys: [] },
    );
    const key = fc.constantFrom('skillStores', 'relayBuses', 'eventStores', 'capabilityVaults', 'other');
    fc.assert(
      fc.property(
        fc.oneof(fc.anything(), fc.dictionary(key, fc.oneof(fc.array(entry), fc.anything()))),
        (value) => {
          try {
            const rows = subjectSuites(value);
            expect(rows.length).toBeGreaterThan(0);
          } catch (error) {
            expect(error).toBeInstanceOf(ConformanceError);
            expect(error).toMatchObject({ code: 'invalid_subjects' });
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
