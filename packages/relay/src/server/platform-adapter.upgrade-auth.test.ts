import { describe, expect, it } from 'vitest';
import { mintRelayToken } from '../auth.js';
import { createMessageEvent } from '../message-event.js';
import {
  bearer,
  connectGateway,
  dial,
  discordDescriptor,
  GATEWAY_ID,
  OLD_SECRET,
  SECRET,
  startServer,
  TENANT,
} from './server-test-support.js';

const discord = { descriptor: discordDescriptor };

describe('upgrade authentication', () => {
  it.each([
    ['no Authorization header', {}],
    ['a header that is not a bearer', { Authorization: `Basic ${SECRET}` }],
    ['a token that is not a token', { Authorization: 'Bearer not-a-token' }],
    ['a token signed with another secret', bearer(GATEWAY_ID, 'some-other-secret')],
    ['an unknown gateway id', bearer('gw-unknown')],
  ])('refuses %s with 4401 unauthorized after the upgrade', async (_name, headers) => {
    const server = await startServer(discord);
    const rejected = new Promise((resolve) => server.once('rejected', resolve));
    const gateway = dial(server, headers);
    await gateway.opened;
    await expect(gateway.closed).resolves.toEqual({ code: 4401, reason: 'unauthorized' });
    await expect(rejected).resolves.toMatchObject({ reason: 'unauthorized' });
    expect(server.connections).toEqual([]);
  });

  it('quotes an unknown gateway id in the detail, so a crafted id cannot forge log lines', async () => {
    const server = await startServer(discord);
    const rejected = new Promise<{ detail: string }>((resolve) => server.once('rejected', resolve));
    const gateway = dial(server, bearer('gw-x\n2026-11-26 INFO accepted gateway gw-admin'));
    await gateway.opened;
    await gateway.closed;
    const { detail } = await rejected;
    expect(detail).toBe('unknown gateway "gw-x\\n2026-11-26 INFO accepted gateway gw-admin"');
    expect(detail).not.toContain('\n');
  });

  it('refuses an expired but validly signed token with reason expired, judged by the server clock', async () => {
    const nowMs = 1_750_000_000_000;
    const server = await startServer(discord, { now: () => nowMs });
    const stale = dial(server, bearer(GATEWAY_ID, SECRET, 300, nowMs / 1000 - 301));
    await expect(stale.closed).resolves.toEqual({ code: 4401, reason: 'expired' });
    const atExpiry = await connectGateway(
      server,
      [['discord', '']],
      bearer(GATEWAY_ID, SECRET, 300, nowMs / 1000 - 300),
    );
    expect(atExpiry.ws.readyState).toBe(atExpiry.ws.OPEN);
  });

  it('calls a forged expired token unauthorized, not expired', async () => {
    const server = await startServer(discord, { now: () => 1_750_000_000_000 });
    const gateway = dial(server, bearer(GATEWAY_ID, 'wrong', 10, 1_700_000_000));
    await expect(gateway.closed).resolves.toEqual({ code: 4401, reason: 'unauthorized' });
  });

  it('accepts a token signed with any secret of the rotation list, with the tenant from authenticate', async () => {
    const server = await startServer(discord);
    const seen: unknown[] = [];
    server.on('connection', (info) => seen.push(info));
    await connectGateway(server, [['discord', '']], bearer(GATEWAY_ID, SECRET));
    await connectGateway(server, [['discord', '']], bearer('gw-2', OLD_SECRET));
    expect(seen).toMatchObject([
      { gatewayId: GATEWAY_ID, tenant: 'tenant-a' },
      { gatewayId: 'gw-2', tenant: 'tenant-a' },
    ]);
  });

  it('honours tokenSkewSeconds', async () => {
    const nowMs = 1_750_000_000_000;
    const server = await startServer(discord, { now: () => nowMs, tokenSkewSeconds: 60 });
    const token = mintRelayToken(GATEWAY_ID, SECRET, { ttlSeconds: 10, now: nowMs / 1000 - 60 });
    const gateway = await connectGateway(server, [['discord', '']], { Authorization: `Bearer ${token}` });
    expect(gateway.ws.readyState).toBe(gateway.ws.OPEN);
  });

  it('closes with 1011 and reports an error when authenticate throws', async () => {
    const server = await startServer(discord, {
      authenticate: () => {
        throw new Error('store down');
      },
    });
    const errors: Error[] = [];
    server.on('error', (error) => errors.push(error));
    const gateway = dial(server);
    await expect(gateway.closed).resolves.toMatchObject({ code: 1011 });
    expect(errors[0]).toMatchObject({ name: 'RelayError', code: 'relay_server_callback_failed' });
    expect(errors[0]?.message).toContain('store down');
  });

  it('answers 404 for another path on its own HTTP server', async () => {
    const server = await startServer(discord);
    const gateway = dial(server, bearer(), '/elsewhere');
    await expect(gateway.opened).rejects.toThrow('HTTP 404');
  });

  it('revoke closes the live sockets of that gateway with 4401 unauthorized', async () => {
    const server = await startServer(discord);
    const revoked = await connectGateway(server, [['discord', '']], bearer(GATEWAY_ID));
    const other = await connectGateway(server, [['discord', '']], bearer('gw-b'));
    expect(server.revoke(GATEWAY_ID)).toBe(1);
    await expect(revoked.closed).resolves.toEqual({ code: 4401, reason: 'unauthorized' });
    expect(other.ws.readyState).toBe(other.ws.OPEN);
  });

  it('disconnect closes the live sockets of that gateway with 1000, and the gateway gets back in with nothing lost', async () => {
    const server = await startServer(discord);
    const dropped = await connectGateway(server, [['discord', '']], bearer(GATEWAY_ID));
    const other = await connectGateway(server, [['discord', '']], bearer('gw-b'));
    const source = { platform: 'discord', chat_type: 'dm', chat_id: '1', user_id: '1' } as const;
    const { bufferId } = await server.deliverInbound(TENANT, createMessageEvent({ text: 'unacked', source }));
    await dropped.waitFor('inbound');
    expect(server.disconnect(GATEWAY_ID, 'moving to another instance')).toBe(1);
    await expect(dropped.closed).resolves.toEqual({ code: 1000, reason: 'moving to another instance' });
    expect(other.ws.readyState).toBe(other.ws.OPEN);
    expect(server.disconnect('gw-unknown')).toBe(0);
    // Not a revocation: the same gateway dials again and is replayed what it never acked.
    const again = await connectGateway(server, [['discord', '']], bearer(GATEWAY_ID));
    expect((await again.waitFor('inbound')).map((frame) => frame.bufferId)).toEqual([bufferId]);
    expect(server.disconnect(GATEWAY_ID)).toBe(1);
    await expect(again.closed).resolves.toEqual({ code: 1000, reason: 'disconnected by the connector' });
  });

  it('disconnect refuses a reason a close frame cannot carry', () => {
    return startServer(discord).then((server) => {
      expect(() => server.disconnect(GATEWAY_ID, 'é'.repeat(62))).toThrow(
        expect.objectContaining({ code: 'relay_server_invalid_input', path: 'reason' }),
      );
      expect(() => server.disconnect(GATEWAY_ID, 'é'.repeat(61))).not.toThrow();
      expect(() => server.disconnect(7 as unknown as string)).toThrow(
        expect.objectContaining({ code: 'relay_server_invalid_input', path: 'gatewayId' }),
      );
    });
  });
});
