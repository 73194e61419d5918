import { afterEach, describe, expect, it, vi } from 'vitest';
import { DISCORD_DESCRIPTOR, TELEGRAM_DESCRIPTOR } from '../testing/test-support.js';
import type { RelayTransportError } from '../transport.js';
import type { RelayDisconnectInfo } from './options.js';
import type { FakeConnection } from './test-connector.js';
import { closeAll, connectedPair, settle, startPair, type TestPair } from './test-harness.js';

const FAST = { reconnect: true, backoff: { initialMs: 5, maxMs: 20 } } as const;

afterEach(closeAll);

function recordDisconnects(pair: TestPair): RelayDisconnectInfo[] {
  const seen: RelayDisconnectInfo[] = [];
  pair.transport.on('disconnected', (info) => seen.push(info));
  return seen;
}

/** Resolves with the next descriptor the transport receives (the next completed handshake). */
function nextHandshake(pair: TestPair): Promise<unknown> {
  return new Promise((resolve) => {
    const off = pair.transport.on('handshake', (descriptor) => {
      off();
      resolve(descriptor);
    });
  });
}

describe('WebSocketRelayTransport: reconnect', () => {
  it('re-dials after an unexpected close, re-sends the hellos and takes the new descriptor', async () => {
    let answer = DISCORD_DESCRIPTOR;
    const pair = await connectedPair({ descriptor: () => answer }, FAST);
    const disconnects = recordDisconnects(pair);
    answer = TELEGRAM_DESCRIPTOR;
    const handshake = nextHandshake(pair);
    pair.connector.latest.close(1011, 'restarting');
    expect(await handshake).toEqual(TELEGRAM_DESCRIPTOR);
    expect(await pair.transport.handshake()).toEqual(TELEGRAM_DESCRIPTOR);
    expect(disconnects).toEqual([{ code: 1011, reason: 'restarting', reconnectInMs: 5 }]);
    expect(pair.connector.connections.map((c) => c.framesOf('hello').length)).toEqual([1, 1]);
    expect(pair.states).toEqual(['idle', 'connecting', 'open', 'reconnecting', 'open']);
    expect(await pair.transport.sendOutbound({ op: 'typing', chat_id: 'c' })).toEqual({ success: true });
  });

  it('doubles the delay over failed dials up to the cap and starts over after a handshake', async () => {
    const pair = await connectedPair({}, FAST);
    const delays: number[] = [];
    pair.transport.on('redial', ({ delayMs }) => delays.push(delayMs));
    pair.connector.behaviour.refuseUpgradeWith = 503;
    pair.connector.latest.terminate();
    await vi.waitFor(() => expect(pair.connector.refusedUpgrades).toBeGreaterThanOrEqual(4));
    expect(pair.transport.state).toBe('reconnecting');
    expect(pair.errors.length).toBeGreaterThanOrEqual(4);
    const handshake = nextHandshake(pair);
    pair.connector.behaviour.refuseUpgradeWith = undefined;
    await handshake;
    const afterHandshake = delays.length;
    const again = nextHandshake(pair);
    pair.connector.latest.terminate();
    await again;
    expect(delays.slice(0, 5)).toEqual([5, 10, 20, 20, 20]);
    expect(delays.slice(afterHandshake)).toEqual([5]);
  });

  it('keeps re-dialling after a failed first connect()', async () => {
    const pair = await startPair({ refuseUpgradeWith: 503 }, FAST);
    const handshake = nextHandshake(pair);
    expect(await pair.transport.connect()).toBe(false);
    expect(pair.transport.state).toBe('reconnecting');
    pair.connector.behaviour.refuseUpgradeWith = undefined;
    expect(await handshake).toEqual(DISCORD_DESCRIPTOR);
    expect(pair.states).toEqual(['idle', 'connecting', 'reconnecting', 'open']);
  });

  it('fails requests pending on the lost connection and refuses new ones until the re-dial opens', async () => {
    const pair = await connectedPair(
      { onOutbound: () => undefined },
      { ...FAST, backoff: { initialMs: 200 } },
    );
    const pending = settle(pair.transport.sendOutbound({ op: 'send', chat_id: 'c', content: 'x' }));
    await vi.waitFor(() => expect(pair.connector.latest.framesOf('outbound')).toHaveLength(1));
    pair.connector.latest.terminate();
    expect(await pending).toMatchObject({ name: 'RelayTransportError', code: 'connection_lost' });
    expect(pair.transport.state).toBe('reconnecting');
    await expect(pair.transport.sendInterrupt('k')).rejects.toMatchObject({ code: 'not_connected' });
    expect(await pair.transport.connect()).toBe(true);
    expect(pair.connector.connections).toHaveLength(2);
  });

  it('disconnect() stops re-dialling, also while a re-dial is scheduled', async () => {
    const pair = await connectedPair({}, { ...FAST, backoff: { initialMs: 30 } });
    pair.connector.behaviour.refuseUpgradeWith = 503;
    pair.connector.latest.terminate();
    await vi.waitFor(() => expect(pair.connector.refusedUpgrades).toBeGreaterThanOrEqual(1));
    await pair.transport.disconnect();
    expect(pair.transport.state).toBe('closed');
    const refused = pair.connector.refusedUpgrades;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(pair.connector.refusedUpgrades).toBe(refused);
    expect(pair.transport.state).toBe('closed');
  });

  it('disconnect() abandons a dial in progress; connect() resolves false', async () => {
    const pair = await startPair({}, FAST);
    const connecting = pair.transport.connect();
    await pair.transport.disconnect();
    expect(await connecting).toBe(false);
    expect(pair.transport.state).toBe('closed');
    expect(pair.errors).toEqual([]);
  });
});

describe('WebSocketRelayTransport: close code 4401', () => {
  it('retries a 4401 before any handshake with the backoff, as a cold start', async () => {
    let refusals = 2;
    const pair = await startPair(
      {
        onConnection: (connection) => {
          if (refusals > 0) {
            refusals -= 1;
            connection.close(4401, 'unauthorized');
          }
        },
      },
      FAST,
    );
    const disconnects = recordDisconnects(pair);
    const handshake = nextHandshake(pair);
    await pair.transport.connect();
    expect(await handshake).toEqual(DISCORD_DESCRIPTOR);
    expect(disconnects).toEqual([
      { code: 4401, reason: 'unauthorized', reconnectInMs: 5 },
      { code: 4401, reason: 'unauthorized', reconnectInMs: 10 },
    ]);
    expect(pair.transport.state).toBe('open');
  });

  it('never reads 4401 "expired" after a handshake as a revocation', async () => {
    const pair = await connectedPair({}, FAST);
    const disconnects = recordDisconnects(pair);
    for (let i = 0; i < 3; i += 1) {
      const handshake = nextHandshake(pair);
      pair.connector.latest.close(4401, 'expired');
      await handshake;
    }
    expect(disconnects).toEqual(Array(3).fill({ code: 4401, reason: 'expired', reconnectInMs: 5 }));
    expect(pair.transport.state).toBe('open');
  });

  it('re-dials at once with a fresh token after a post-handshake 4401, then revokes on a second one', async () => {
    let seconds = 1_750_000_000;
    const pair = await connectedPair(
      { onOutbound: () => undefined },
      { ...FAST, gatewayId: 'gw-1', secret: 'shh', clock: () => seconds * 1000 },
    );
    const disconnects = recordDisconnects(pair);
    const revocations: RelayTransportError[] = [];
    pair.transport.on('revoked', (error) => revocations.push(error));
    let fresh: FakeConnection | undefined;
    pair.connector.behaviour.descriptor = () => undefined;
    pair.connector.behaviour.onConnection = (connection) => {
      fresh = connection;
    };
    seconds += 1;
    pair.connector.latest.close(4401, 'unauthorized');
    await vi.waitFor(() => expect(fresh?.framesOf('hello')).toHaveLength(1));
    expect(disconnects).toEqual([{ code: 4401, reason: 'unauthorized', reconnectInMs: 0 }]);
    expect(fresh?.authorization).not.toBe(pair.connector.connections[0]?.authorization);
    const handshake = settle(pair.transport.handshake());
    const pending = settle(pair.transport.sendOutbound({ op: 'send', chat_id: 'c', content: 'x' }));
    await vi.waitFor(() => expect(fresh?.framesOf('outbound')).toHaveLength(1));
    fresh?.close(4401, 'unauthorized');
    const [handshakeError, pendingError] = await Promise.all([handshake, pending]);
    expect(handshakeError).toMatchObject({ name: 'RelayTransportError', code: 'auth_revoked' });
    expect(pendingError).toMatchObject({ name: 'RelayTransportError', code: 'auth_revoked' });
    expect(pendingError).toMatchObject({ code: 'auth_revoked', retryable: false, ambiguous: true });
    expect(pair.transport.state).toBe('revoked');
    expect(revocations).toHaveLength(1);
    expect(revocations[0]).toMatchObject({ retryable: false, details: { closeReason: 'unauthorized' } });
    expect(disconnects.at(-1)).toEqual({ code: 4401, reason: 'unauthorized', reconnectInMs: null });
    const later = await settle(pair.transport.sendOutbound({ op: 'typing', chat_id: 'c' }));
    expect(later).toMatchObject({ name: 'RelayTransportError', code: 'auth_revoked' });
    expect((later as RelayTransportError).toResult()).toEqual({
      success: false,
      error: 'relay transport not connected',
    });
    expect(await pair.transport.connect()).toBe(false);
    await pair.transport.disconnect();
    expect(pair.transport.state).toBe('revoked');
    expect(pair.connector.connections).toHaveLength(2);
  });

  it('keeps the link when the fresh-token re-dial completes a handshake', async () => {
    const pair = await connectedPair({}, FAST);
    const disconnects = recordDisconnects(pair);
    for (let i = 0; i < 2; i += 1) {
      const handshake = nextHandshake(pair);
      pair.connector.latest.close(4401, 'unauthorized');
      await handshake;
    }
    expect(disconnects.map((info) => info.reconnectInMs)).toEqual([0, 0]);
    expect(pair.transport.state).toBe('open');
  });

  it('revokes a reconnect: false transport on the second post-handshake 4401', async () => {
    const pair = await connectedPair();
    pair.connector.latest.close(4401, 'unauthorized');
    await vi.waitFor(() => expect(pair.transport.state).toBe('closed'));
    expect(await pair.transport.connect()).toBe(true);
    pair.connector.latest.close(4401, 'revoked');
    await vi.waitFor(() => expect(pair.transport.state).toBe('revoked'));
    await expect(pair.transport.handshake()).rejects.toMatchObject({
      name: 'RelayTransportError',
      code: 'auth_revoked',
      details: { closeReason: 'revoked' },
    });
  });
});
