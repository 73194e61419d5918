import { describe, expect, it } from 'vitest';
import { GATEWAY_FAILURE_ERRORS } from '../frames/index.js';
import {
  RelayConnectionLostError,
  RelayDescriptorRejectedError,
  RelayHandshakeTimeoutError,
  RelayNotConnectedError,
  RelayOutboundTimeoutError,
  RelayRequestError,
  RelayTransportClosedError,
  RelayTransportError,
} from './errors.js';

describe('RelayTransportError family', () => {
  it.each([
    [new RelayNotConnectedError('send_outbound'), 'RelayNotConnectedError', 'not_connected', true, false],
    [
      new RelayTransportClosedError('send_outbound', 'abc'),
      'RelayTransportClosedError',
      'transport_closed',
      true,
      true,
    ],
    [
      new RelayTransportClosedError('handshake', undefined),
      'RelayTransportClosedError',
      'transport_closed',
      true,
      false,
    ],
    [
      new RelayConnectionLostError('send_outbound', 'abc'),
      'RelayConnectionLostError',
      'connection_lost',
      true,
      true,
    ],
    [
      new RelayConnectionLostError('handshake', undefined),
      'RelayConnectionLostError',
      'connection_lost',
      true,
      false,
    ],
    [new RelayOutboundTimeoutError('abc', 50), 'RelayOutboundTimeoutError', 'outbound_timeout', true, true],
    [new RelayHandshakeTimeoutError(50), 'RelayHandshakeTimeoutError', 'handshake_timeout', true, false],
    [
      new RelayDescriptorRejectedError('missing label'),
      'RelayDescriptorRejectedError',
      'descriptor_rejected',
      false,
      false,
    ],
  ] as const)(
    '%s has name %s, code %s, retryable %s, ambiguous %s',
    (error, name, code, retryable, ambiguous) => {
      expect(error).toBeInstanceOf(RelayTransportError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(name);
      expect(error.code).toBe(code);
      expect(error.retryable).toBe(retryable);
      expect(error.ambiguous).toBe(ambiguous);
    },
  );

  it('gives the gateway synthesised result for each request error', () => {
    expect(new RelayNotConnectedError('send_outbound').toResult()).toEqual({
      success: false,
      error: GATEWAY_FAILURE_ERRORS.notConnected,
    });
    expect(new RelayOutboundTimeoutError('abc', 30_000).toResult()).toEqual({
      success: false,
      error: 'relay outbound timed out',
      ambiguous: true,
    });
    expect(new RelayTransportClosedError('send_outbound', 'abc').toResult()).toEqual({
      success: false,
      error: 'relay transport closed',
      ambiguous: true,
    });
    expect(new RelayConnectionLostError('send_outbound', 'abc').toResult()).toEqual({
      success: false,
      error: 'relay transport connection lost',
      ambiguous: true,
    });
    expect(new RelayTransportClosedError('handshake', undefined).toResult()).toEqual({
      success: false,
      error: 'relay transport closed',
    });
  });

  it('keeps requestId, timeout and cause', () => {
    const timeout = new RelayOutboundTimeoutError('9f0c', 250);
    expect(timeout).toBeInstanceOf(RelayRequestError);
    expect(timeout.requestId).toBe('9f0c');
    expect(timeout.timeoutMs).toBe(250);
    expect(timeout.message).toContain('9f0c');
    expect(new RelayHandshakeTimeoutError(70).timeoutMs).toBe(70);
    const cause = new Error('bad descriptor');
    expect(new RelayDescriptorRejectedError('bad', { cause }).cause).toBe(cause);
    expect(new RelayNotConnectedError('x', { cause }).cause).toBe(cause);
    expect(new RelayNotConnectedError('x').requestId).toBeUndefined();
  });
});
