import {
  type BufferedFrame,
  type CapabilityBinding,
  type CapabilityLookup,
  type CapabilityVault,
  encodeBufferedFrame,
  type GatewaySecretRecord,
  type GatewaySecretStore,
  type RelayBus,
  type RelayBusListener,
  type RelayBusMessage,
  type RotateGatewaySecretOptions,
} from '@agentwire/relay';
import {
  InMemoryCapabilityVault,
  InMemoryGatewaySecretStore,
  InMemoryInboundBuffer,
  InMemoryRelayBus,
} from '@agentwire/relay/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { capabilityVaultSuite } from './capability-vault-suite.js';
import { gatewaySecretStoreSuite } from './gateway-secret-store-suite.js';
import { inboundBufferSuite } from './inbound-buffer-suite.js';
import { relayBusSuite } from './relay-bus-suite.js';

const quietBus = () => new InMemoryRelayBus({ onListenerError: () => undefined });

function fakeClockVault() {
  let now = 1_000_000;
  return {
    create: () => new InMemoryCapabilityVault({ now: () => now }),
    elapse: (ms: number) => {
      now += ms;
    },
  };
}

const inMemorySecretStoreSuite = () =>
  gatewaySecretStoreSuite({ create: (now) => new InMemoryGatewaySecretStore({ now }) });

const failedIds = (report: { results: readonly { id: string; status: string }[] }) =>
  report.results.filter((r) => r.status === 'failed').map((r) => r.id);
/** The failed `required` cases (the broken doubles below skip the recommended argument checks). */
const failedRequired = (report: { results: readonly { id: string; status: string; level: string }[] }) =>
  failedIds({ results: report.results.filter((r) => r.level === 'required') });

describe('relayBusSuite through registerSuite (InMemoryRelayBus)', () => {
  registerSuite(relayBusSuite({ create: quietBus }), { describe, it, afterAll });
});
describe('inboundBufferSuite through registerSuite (InMemoryInboundBuffer)', () => {
  registerSuite(inboundBufferSuite({ create: () => new InMemoryInboundBuffer() }), {
    describe,
    it,
    afterAll,
  });
});
describe('capabilityVaultSuite through registerSuite (InMemoryCapabilityVault, fake clock)', () => {
  registerSuite(capabilityVaultSuite(fakeClockVault()), { describe, it, afterAll });
});

describe('gatewaySecretStoreSuite through registerSuite (InMemoryGatewaySecretStore)', () => {
  registerSuite(inMemorySecretStoreSuite(), { describe, it, afterAll });
});

describe('relay runtime suites against the in-memory implementations', () => {
  it('pass every case but the shared-backend ones, which are skipped', async () => {
    const reports = [
      await runSuite(relayBusSuite({ create: quietBus })),
      await runSuite(inboundBufferSuite({ create: () => new InMemoryInboundBuffer() })),
      await runSuite(capabilityVaultSuite(fakeClockVault())),
      await runSuite(inMemorySecretStoreSuite()),
    ];
    for (const report of reports) {
      expect(report.ok).toBe(true);
      expect(report.counts.failed).toBe(0);
      const skipped = report.results.filter((r) => r.status === 'skipped').map((r) => r.id);
      expect(skipped.length).toBeGreaterThan(0);
      expect(skipped.every((caseId) => caseId.includes('.shared.'))).toBe(true);
    }
  });

  it('pass the vault suite in real time, without an elapse function', async () => {
    const report = await runSuite(
      capabilityVaultSuite({ create: () => new InMemoryCapabilityVault(), shortTtlMs: 20 }),
    );
    expect(failedIds(report)).toEqual([]);
  });

  it('have unique, suite-prefixed case ids', () => {
    for (const suite of [
      relayBusSuite({ create: quietBus }),
      inboundBufferSuite({ create: () => new InMemoryInboundBuffer() }),
      capabilityVaultSuite(fakeClockVault()),
      inMemorySecretStoreSuite(),
    ]) {
      const ids = suite.cases.map((c) => c.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.every((caseId) => caseId.startsWith(`${suite.name}.`))).toBe(true);
    }
  });
});

describe('relay runtime suites catch broken implementations', () => {
  it('fail a bus that counts one per tenant and lets a message overtake another', async () => {
    class BrokenBus extends InMemoryRelayBus {
      #published = 0;
      override async publish(tenant: string, message: RelayBusMessage): Promise<number> {
        this.#published += 1;
        // Every 7th message overtakes the one before it.
        if (this.#published % 7 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
        return Math.min(1, await super.publish(tenant, message));
      }
    }
    const report = await runSuite(
      relayBusSuite({
        create: () => new BrokenBus({ onListenerError: () => undefined }),
        deliveryTimeoutMs: 200,
      }),
    );
    expect(failedIds(report)).toEqual([
      'relay-runtime.bus.publish.order-kept',
      'relay-runtime.bus.publish.counts-every-subscription',
    ]);
  });

  it('fail a bus whose throwing listener stops the listeners after it', async () => {
    /** Calls listeners in a row without catching, so a throw ends the delivery. */
    class UnguardedBus implements RelayBus {
      readonly #listeners = new Map<string, RelayBusListener[]>();
      async publish(tenant: string, message: RelayBusMessage) {
        const listeners = this.#listeners.get(tenant) ?? [];
        await Promise.resolve();
        for (const listener of listeners) listener(message);
        return listeners.length;
      }
      async subscribe(tenant: string, listener: RelayBusListener) {
        this.#listeners.set(tenant, [...(this.#listeners.get(tenant) ?? []), listener]);
        return {
          unsubscribe: async () => {
            this.#listeners.set(
              tenant,
              (this.#listeners.get(tenant) ?? []).filter((l) => l !== listener),
            );
          },
        };
      }
      async close() {}
    }
    const report = await runSuite(
      relayBusSuite({ create: () => new UnguardedBus(), deliveryTimeoutMs: 200 }),
    );
    expect(failedRequired(report)).toEqual(['relay-runtime.bus.listener.throwing-isolated']);
  });

  it('fail a bus whose refusals are untyped, or that takes a message with a field of the wrong type', async () => {
    const untyped = async <T>(action: () => Promise<T>): Promise<T> => {
      try {
        return await action();
      } catch (error) {
        throw new Error((error as Error).message);
      }
    };
    class UntypedBus extends InMemoryRelayBus {
      override publish(tenant: string, message: RelayBusMessage) {
        return untyped(() => super.publish(tenant, message));
      }
      override subscribe(tenant: string, listener: RelayBusListener) {
        return untyped(() => super.subscribe(tenant, listener));
      }
    }
    const untypedReport = await runSuite(
      relayBusSuite({ create: () => new UntypedBus({ onListenerError: () => undefined }) }),
    );
    expect(failedIds(untypedReport)).toEqual([
      'relay-runtime.bus.arguments.refused',
      'relay-runtime.bus.close.refuses-use',
    ]);

    class LenientBus extends InMemoryRelayBus {
      override publish(tenant: string, message: RelayBusMessage) {
        // Turns the fields of an interrupt into strings instead of refusing them.
        if (message?.type === 'interrupt_inbound') {
          const { session_key, chat_id } = message;
          return super.publish(tenant, {
            ...message,
            session_key: String(session_key),
            chat_id: String(chat_id),
          });
        }
        return super.publish(tenant, message);
      }
    }
    const lenientReport = await runSuite(
      relayBusSuite({ create: () => new LenientBus({ onListenerError: () => undefined }) }),
    );
    const refused = lenientReport.results.find((r) => r.id === 'relay-runtime.bus.arguments.refused');
    expect(refused?.status).toBe('failed');
    expect(refused?.error?.message).toContain('interrupt_inbound with a numeric chat_id');
  });

  it('fail a buffer that loses a pending entry now and then as it tidies up after acks', async () => {
    class LossyBuffer extends InMemoryInboundBuffer {
      #acks = 0;
      override async ack(tenant: string, bufferId: string) {
        const removed = await super.ack(tenant, bufferId);
        this.#acks += 1;
        // Every 50th ack also drops the oldest pending entry, as a compaction that miscounts would.
        if (removed && this.#acks % 50 === 0) {
          const [oldest] = await super.read(tenant, null, 1);
          if (oldest !== undefined) await super.ack(tenant, oldest.bufferId);
        }
        return removed;
      }
    }
    const report = await runSuite(inboundBufferSuite({ create: () => new LossyBuffer() }));
    expect(failedIds(report)).toEqual(['relay-runtime.buffer.ack.many-in-any-order']);
  });

  it('fail a buffer whose refusals are untyped', async () => {
    class UntypedBuffer extends InMemoryInboundBuffer {
      override async read(tenant: string, afterId: string | null, limit: number) {
        try {
          return await super.read(tenant, afterId, limit);
        } catch (error) {
          throw new Error((error as Error).message);
        }
      }
    }
    const report = await runSuite(inboundBufferSuite({ create: () => new UntypedBuffer() }));
    expect(failedIds(report)).toEqual([
      'relay-runtime.buffer.arguments.refused',
      'relay-runtime.buffer.close.refuses-use',
    ]);
  });

  it('fail a buffer that reuses ids after an ack and whose ack crosses tenants', async () => {
    class ReusingBuffer {
      readonly #entries: { tenant: string; bufferId: string; frame: BufferedFrame }[] = [];
      async append(tenant: string, frame: BufferedFrame) {
        const bufferId = String(this.#entries.length + 1);
        this.#entries.push({ tenant, bufferId, frame });
        return bufferId;
      }
      async read(tenant: string, afterId: string | null, limit: number) {
        const mine = this.#entries.filter((e) => e.tenant === tenant);
        const start = afterId === null ? 0 : mine.findIndex((e) => e.bufferId === afterId) + 1;
        return mine
          .slice(start, start + limit)
          .map(({ bufferId, frame }) => ({ bufferId, frameJson: encodeBufferedFrame(frame) }));
      }
      async ack(_tenant: string, bufferId: string) {
        const index = this.#entries.findIndex((e) => e.bufferId === bufferId);
        if (index < 0) return false;
        this.#entries.splice(index, 1);
        return true;
      }
      async size(tenant: string) {
        return this.#entries.filter((e) => e.tenant === tenant).length;
      }
      async close() {}
    }
    const failed = failedIds(await runSuite(inboundBufferSuite({ create: () => new ReusingBuffer() })));
    expect(failed).toContain('relay-runtime.buffer.ids.never-reused');
    expect(failed).toContain('relay-runtime.buffer.ack.other-tenant');
    expect(failed).toContain('relay-runtime.buffer.read.after-acknowledged-position');
    expect(failed).not.toContain('relay-runtime.buffer.read.append-order');
  });

  it('fail a vault that turns a malformed binding into a string instead of refusing it', async () => {
    class CoercingVault extends InMemoryCapabilityVault {
      override bind(binding: CapabilityBinding) {
        return super.bind({ ...binding, credential: String(binding?.credential) });
      }
    }
    const report = await runSuite(
      capabilityVaultSuite({ create: () => new CoercingVault(), shortTtlMs: 20 }),
    );
    expect(failedIds(report)).toEqual(['relay-runtime.vault.arguments.refused']);
  });

  it('fail a vault that leaks the secret on a tenant mismatch and lets any tenant revoke', async () => {
    /** Wraps the in-memory vault, answering mismatches with the secret and revoking for anyone. */
    class LeakyVault implements CapabilityVault {
      readonly #inner: InMemoryCapabilityVault;
      readonly #bindings = new Map<string, CapabilityBinding>();
      constructor(inner: InMemoryCapabilityVault) {
        this.#inner = inner;
      }
      async bind(binding: CapabilityBinding) {
        await this.#inner.bind(binding);
        this.#bindings.set(`${binding.session_key} ${binding.kind}`, binding);
      }
      async resolve(tenant: string, sessionKey: string, kind: string): Promise<CapabilityLookup> {
        const lookup = await this.#inner.resolve(tenant, sessionKey, kind);
        if (lookup.found || lookup.reason === 'absent') return lookup;
        const leaked = this.#bindings.get(`${sessionKey} ${kind}`)?.credential;
        return { ...lookup, credential: leaked } as CapabilityLookup;
      }
      async revoke(_tenant: string, sessionKey: string, kind: string) {
        const owner = this.#bindings.get(`${sessionKey} ${kind}`)?.tenant;
        return owner !== undefined && this.#inner.revoke(owner, sessionKey, kind);
      }
      close() {
        return this.#inner.close();
      }
    }
    const clock = fakeClockVault();
    const report = await runSuite(
      capabilityVaultSuite({ create: () => new LeakyVault(clock.create()), elapse: clock.elapse }),
    );
    expect(failedRequired(report)).toEqual([
      'relay-runtime.vault.resolve.tenant-mismatch',
      'relay-runtime.vault.revoke.other-tenant',
    ]);
  });

  it('fail a secret store whose rotation window never ends and that prints its secrets', async () => {
    /** Delegates to the in-memory store, but keeps the old secret forever and leaves records unredacted. */
    class CarelessSecretStore implements GatewaySecretStore {
      readonly #inner: InMemoryGatewaySecretStore;
      readonly #old = new Map<string, string>();
      constructor(now: () => number) {
        this.#inner = new InMemoryGatewaySecretStore({ now });
      }
      #plain(record: GatewaySecretRecord, keepOld = true): GatewaySecretRecord {
        const old = this.#old.get(record.gatewayId);
        const secrets =
          keepOld && old !== undefined && !record.secrets.includes(old) && !record.revoked
            ? [...record.secrets, old]
            : record.secrets;
        // A plain object: JSON.stringify shows every secret.
        return { ...record, secrets, deliveryKey: record.deliveryKey } as unknown as GatewaySecretRecord;
      }
      async create(gatewayId: string, tenant: string) {
        return this.#plain(await this.#inner.create(gatewayId, tenant));
      }
      async issue(gatewayId: string, tenant: string) {
        this.#old.delete(gatewayId);
        return this.#plain(await this.#inner.issue(gatewayId, tenant));
      }
      async rotate(gatewayId: string, options: RotateGatewaySecretOptions) {
        const before = await this.#inner.get(gatewayId);
        const record = await this.#inner.rotate(gatewayId, options);
        if (before !== null && options.graceMs > 0) this.#old.set(gatewayId, before.secrets[0]!);
        return this.#plain(record, options.graceMs > 0);
      }
      revoke(gatewayId: string) {
        return this.#inner.revoke(gatewayId);
      }
      async get(gatewayId: string) {
        const record = await this.#inner.get(gatewayId);
        return record === null ? null : this.#plain(record);
      }
      close() {
        return this.#inner.close();
      }
    }
    const report = await runSuite(gatewaySecretStoreSuite({ create: (now) => new CarelessSecretStore(now) }));
    expect(failedIds(report)).toEqual([
      'relay-runtime.secrets.rotate.grace-window',
      'relay-runtime.secrets.records.redacted',
    ]);
  });

  it('fail a secret store that lets a second create of an id replace the first', async () => {
    /** Creates by issuing: a held id gets new secrets, and a racer of another tenant hears tenant_mismatch. */
    class OverwritingSecretStore extends InMemoryGatewaySecretStore {
      override async create(gatewayId: string, tenant: string): Promise<GatewaySecretRecord> {
        await Promise.resolve();
        return this.issue(gatewayId, tenant);
      }
    }
    const report = await runSuite(
      gatewaySecretStoreSuite({ create: (now) => new OverwritingSecretStore({ now }) }),
    );
    expect(failedRequired(report)).toEqual([
      'relay-runtime.secrets.create.refuses-held-id',
      'relay-runtime.secrets.create.one-racer-wins',
    ]);
  });
});
