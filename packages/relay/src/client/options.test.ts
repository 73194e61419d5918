import { describe, expect, it } from 'vitest';
import { authRevokedError } from '../transport.js';
import type { WebSocketRelayTransportOptions } from './options.js';
import { WebSocketRelayTransport } from './web-socket-relay-transport.js';

function refusal(options: unknown): unknown {
  try {
    new WebSocketRelayTransport(options as WebSocketRelayTransportOptions);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('WebSocketRelayTransport options', () => {
  it('derives the dial URL as the gateway does: relay_url() then _ws_dial_url', () => {
    const cases: [string, string][] = [
      [' https://connector.example/ ', 'wss://connector.example/relay'],
      ['http://127.0.0.1:8080', 'ws://127.0.0.1:8080/relay'],
      ['wss://connector.example/relay', 'wss://connector.example/relay'],
      ['https://connector.example/base/', 'wss://connector.example/base/relay'],
      // relay_url() drops the trailing slash, _ws_dial_url then strips the space it uncovers
      ['https://connector.example /', 'wss://connector.example/relay'],
    ];
    for (const [url, dialUrl] of cases) expect(new WebSocketRelayTransport({ url }).dialUrl).toBe(dialUrl);
  });

  it('starts idle', () => {
    const transport = new WebSocketRelayTransport({ url: 'http://127.0.0.1:1' });
    expect(transport.state).toBe('idle');
    expect(transport.connected).toBe(false);
  });

  it('refuses unusable options with a typed error naming the option', () => {
    const base = { url: 'https://connector.example' };
    const cases: [unknown, string][] = [
      [null, ''],
      [{ url: 42 }, 'url'],
      [{ url: '' }, 'url'],
      [{ url: 'connector.example' }, 'url'],
      [{ url: 'ftp://connector.example' }, 'url'],
      [{ ...base, identities: [] }, 'identities'],
      [{ ...base, identities: [{ platform: 'discord' }] }, 'identities[0]'],
      [
        {
          ...base,
          identities: [
            { platform: 'relay', botId: '' },
            { platform: 7, botId: '' },
          ],
        },
        'identities[1]',
      ],
      [{ ...base, handshakeTimeoutMs: 0 }, 'handshakeTimeoutMs'],
      [{ ...base, outboundTimeoutMs: Number.NaN }, 'outboundTimeoutMs'],
      [{ ...base, goingIdleTimeoutMs: -1 }, 'goingIdleTimeoutMs'],
      [{ ...base, backoff: { initialMs: '1' } }, 'backoff.initialMs'],
      [{ ...base, backoff: { initialMs: 100, maxMs: 10 } }, 'backoff.maxMs'],
      [{ ...base, gatewayId: 'gw', secret: 'bad \ud800' }, 'secret'],
      [{ ...base, gatewayId: 'gw', secret: 's', clock: () => Number.NaN }, 'secret'],
    ];
    for (const [options, path] of cases) {
      const error = refusal(options);
      expect(error, JSON.stringify(options)).toMatchObject({
        name: 'RelayError',
        code: 'invalid_client_options',
      });
      expect(error).toMatchObject({ code: 'invalid_client_options', path });
    }
  });

  it('refuses an unusable goIdle timeout with a typed error', async () => {
    const transport = new WebSocketRelayTransport({ url: 'http://127.0.0.1:1' });
    await expect(transport.goIdle(0)).rejects.toMatchObject({ code: 'invalid_client_options' });
  });

  it('auth_revoked is a non-retryable transport error', () => {
    const error = authRevokedError('send_outbound', 'unauthorized', 'a'.repeat(32));
    expect(error).toMatchObject({
      name: 'RelayTransportError',
      code: 'auth_revoked',
      retryable: false,
      ambiguous: true,
      details: { closeReason: 'unauthorized' },
    });
    expect(error.toResult()).toEqual({
      success: false,
      error: 'relay transport connection lost',
      ambiguous: true,
    });
  });
});
