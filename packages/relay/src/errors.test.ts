import { describe, expect, it } from 'vitest';
import { peerLimitError, RELAY_CLOSE_PEER_LIMIT, RelayError } from './errors.js';
import { GATEWAY_FAILURE_ERRORS } from './frames/frames.js';
import {
  buildSessionKey,
  decodeGatewayFrame,
  decodePromptCallback,
  mintRelayToken,
  parseDescriptor,
  sessionSourceToWire,
} from './index.js';
import {
  authRevokedError,
  connectionLostError,
  descriptorRejectedError,
  handshakeTimeoutError,
  notConnectedError,
  outboundTimeoutError,
  RelayTransportError,
  type RelayTransportErrorCode,
  transportClosedError,
} from './transport.js';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('RelayError', () => {
  it('is what every area throws for input it refuses, each with a stable code and a path', () => {
    const cases: [unknown, string][] = [
      [thrown(() => parseDescriptor('{"platform": "x"}')), 'descriptor_missing_fields'],
      [thrown(() => decodeGatewayFrame('[1]')), 'not_object'],
      [thrown(() => mintRelayToken('gw', '')), 'relay_secret_empty'],
      [thrown(() => decodePromptCallback('nope')), 'prompt_callback_malformed'],
      [
        thrown(() => buildSessionKey({ platform: 'whatsapp', chat_type: 'dm', chat_id: '', user_id: '++' })),
        'whatsapp_identifier_unresolvable',
      ],
      [thrown(() => sessionSourceToWire({ platform: 1 } as never)), 'session_source_invalid_field'],
    ];
    for (const [error, code] of cases) {
      expect(error).toBeInstanceOf(RelayError);
      expect(error).toMatchObject({ name: 'RelayError', code });
      expect(typeof (error as RelayError).path).toBe('string');
    }
  });

  it('defaults path to the whole value, retryable to false and details to none', () => {
    const error = new RelayError('bus_closed', 'the relay bus is closed');
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'RelayError',
      code: 'bus_closed',
      message: 'the relay bus is closed',
      path: '',
      retryable: false,
    });
    expect(error.details).toEqual({});
    expect(error.cause).toBeUndefined();
  });

  it('keeps path, retryable, details and cause', () => {
    const cause = new SyntaxError('Unexpected token');
    const error = new RelayError(
      'descriptor_missing_fields',
      'descriptor is missing required field(s): label',
      {
        path: 'label',
        retryable: true,
        details: { missing: ['label'] },
        cause,
      },
    );
    expect(error).toMatchObject({
      code: 'descriptor_missing_fields',
      path: 'label',
      retryable: true,
      details: { missing: ['label'] },
    });
    expect(error.cause).toBe(cause);
  });
});

describe('peerLimitError', () => {
  it('is a peer_limit RelayError naming the limit, closed with 1008', () => {
    const error = peerLimitError('send_backlog', 'more than 8 MiB queued');
    expect(RELAY_CLOSE_PEER_LIMIT).toBe(1008);
    expect(error).toBeInstanceOf(RelayError);
    expect(error).toMatchObject({
      name: 'RelayError',
      code: 'peer_limit',
      message: 'connection dropped (send_backlog): more than 8 MiB queued',
      path: '',
      retryable: false,
      details: { limit: 'send_backlog', closeCode: RELAY_CLOSE_PEER_LIMIT },
    });
  });
});

describe('RelayTransportError', () => {
  it.each([
    [notConnectedError('send_outbound'), 'not_connected', true, false],
    [transportClosedError('send_outbound', 'abc'), 'transport_closed', true, true],
    [transportClosedError('handshake', undefined), 'transport_closed', true, false],
    [connectionLostError('send_outbound', 'abc'), 'connection_lost', true, true],
    [connectionLostError('handshake', undefined), 'connection_lost', true, false],
    [outboundTimeoutError('abc', 50), 'outbound_timeout', true, true],
    [handshakeTimeoutError(50), 'handshake_timeout', true, false],
    [descriptorRejectedError('missing label'), 'descriptor_rejected', false, false],
    [authRevokedError('send_outbound', 'unauthorized', 'abc'), 'auth_revoked', false, true],
    [authRevokedError('handshake', 'unauthorized'), 'auth_revoked', false, false],
  ] as const)('%s has code %s, retryable %s, ambiguous %s', (error, code, retryable, ambiguous) => {
    expect(error).toBeInstanceOf(RelayTransportError);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(RelayError);
    expect(error).toMatchObject({ name: 'RelayTransportError', code, retryable, ambiguous });
  });

  it('gives the gateway synthesised result for each code', () => {
    const results: [RelayTransportError, RelayTransportErrorCode, object][] = [
      [
        notConnectedError('send_outbound'),
        'not_connected',
        { success: false, error: GATEWAY_FAILURE_ERRORS.notConnected },
      ],
      [
        transportClosedError('send_outbound', 'abc'),
        'transport_closed',
        { success: false, error: 'relay transport closed', ambiguous: true },
      ],
      [
        transportClosedError('handshake', undefined),
        'transport_closed',
        { success: false, error: 'relay transport closed' },
      ],
      [
        connectionLostError('send_outbound', 'abc'),
        'connection_lost',
        { success: false, error: 'relay transport connection lost', ambiguous: true },
      ],
      [
        connectionLostError('handshake', undefined),
        'connection_lost',
        { success: false, error: 'relay transport connection lost' },
      ],
      [
        outboundTimeoutError('abc', 30_000),
        'outbound_timeout',
        { success: false, error: 'relay outbound timed out', ambiguous: true },
      ],
      [
        handshakeTimeoutError(30_000),
        'handshake_timeout',
        { success: false, error: 'relay transport not connected' },
      ],
      [
        descriptorRejectedError('bad'),
        'descriptor_rejected',
        { success: false, error: 'relay transport not connected' },
      ],
      [
        authRevokedError('send_outbound', 'unauthorized', 'abc'),
        'auth_revoked',
        { success: false, error: 'relay transport connection lost', ambiguous: true },
      ],
      [
        authRevokedError('send_outbound', 'unauthorized'),
        'auth_revoked',
        { success: false, error: 'relay transport not connected' },
      ],
    ];
    for (const [error, code, result] of results) {
      expect(error.code).toBe(code);
      expect(error.toResult()).toEqual(result);
    }
  });

  it('keeps requestId, timeout, close reason and cause', () => {
    const timeout = outboundTimeoutError('9f0c', 250);
    expect(timeout.requestId).toBe('9f0c');
    expect(timeout.details?.timeoutMs).toBe(250);
    expect(timeout.message).toContain('9f0c');
    expect(handshakeTimeoutError(70).details?.timeoutMs).toBe(70);
    expect(authRevokedError('send_outbound', 'revoked').details?.closeReason).toBe('revoked');
    const cause = new Error('bad descriptor');
    expect(descriptorRejectedError('bad', { cause }).cause).toBe(cause);
    expect(notConnectedError('x', { cause }).cause).toBe(cause);
    expect(notConnectedError('x').requestId).toBeUndefined();
  });

  it('is ambiguous for an outbound timeout even without a requestId', () => {
    const error = new RelayTransportError('outbound_timeout', 'relay outbound timed out');
    expect(error).toMatchObject({ retryable: true, ambiguous: true });
    expect(error.toResult()).toEqual({ success: false, error: 'relay outbound timed out', ambiguous: true });
  });
});
