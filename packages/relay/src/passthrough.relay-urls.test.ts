import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveRelayUrls, relayHttpBaseUrl, relayMediaUrl, relayWebSocketUrl } from './passthrough.js';

describe('relayWebSocketUrl', () => {
  it('maps the scheme, drops trailing slashes and appends /relay once', () => {
    expect(relayWebSocketUrl('https://connector.example')).toBe('wss://connector.example/relay');
    expect(relayWebSocketUrl('http://localhost:8080/')).toBe('ws://localhost:8080/relay');
    expect(relayWebSocketUrl('  https://c.example/base///\n')).toBe('wss://c.example/base/relay');
    expect(relayWebSocketUrl('wss://c.example/relay')).toBe('wss://c.example/relay');
    expect(relayWebSocketUrl('https://c.example/relay/')).toBe('wss://c.example/relay');
  });

  it('only appends /relay to a scheme-less, odd-cased or empty value, as the gateway does', () => {
    expect(relayWebSocketUrl('connector.example')).toBe('connector.example/relay');
    expect(relayWebSocketUrl('HTTPS://c.example')).toBe('HTTPS://c.example/relay');
    expect(relayWebSocketUrl('')).toBe('/relay');
    expect(relayWebSocketUrl('https://c.example/relayx')).toBe('wss://c.example/relayx/relay');
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }),
        fc.constantFrom('', 'http://', 'https://', 'ws://'),
        (rest, scheme) => {
          const once = relayWebSocketUrl(scheme + rest);
          expect(relayWebSocketUrl(once)).toBe(once);
          expect(once.endsWith('/relay')).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('relayHttpBaseUrl', () => {
  it('maps ws(s) back to http(s) and removes one trailing /relay', () => {
    expect(relayHttpBaseUrl('wss://c.example/relay')).toBe('https://c.example');
    expect(relayHttpBaseUrl('ws://localhost:8080/relay/')).toBe('http://localhost:8080');
    expect(relayHttpBaseUrl('wss://c.example/relay/relay')).toBe('https://c.example/relay');
    expect(relayHttpBaseUrl('c.example/relay')).toBe('c.example');
  });
});

describe('deriveRelayUrls / relayMediaUrl', () => {
  it('derives every side-call URL from the configured base', () => {
    expect(deriveRelayUrls('https://connector.example/')).toEqual({
      webSocket: 'wss://connector.example/relay',
      httpBase: 'https://connector.example',
      enroll: 'https://connector.example/relay/enroll',
      provision: 'https://connector.example/relay/provision',
      policy: 'https://connector.example/relay/policy',
      media: 'https://connector.example/relay/media',
    });
    expect(deriveRelayUrls('http://h:1/prefix/relay').provision).toBe('http://h:1/prefix/relay/provision');
  });

  it('derives each URL as the gateway function that uses it does, where those disagree', () => {
    // `relay_url()` strips the setting and its trailing slashes; `_provision_url` / `_policy_url` keep
    // a slash left before `/relay`, the enroll CLI and the media client drop it.
    expect(deriveRelayUrls('https://c.example//relay')).toEqual({
      webSocket: 'wss://c.example//relay',
      httpBase: 'https://c.example/',
      enroll: 'https://c.example/relay/enroll',
      provision: 'https://c.example//relay/provision',
      policy: 'https://c.example//relay/policy',
      media: 'https://c.example/relay/media',
    });
    // White space uncovered by dropping the trailing slash is stripped again by `_ws_dial_url` and
    // `media_base_url` only.
    expect(deriveRelayUrls('https://c.example /')).toEqual({
      webSocket: 'wss://c.example/relay',
      httpBase: 'https://c.example ',
      enroll: 'https://c.example /relay/enroll',
      provision: 'https://c.example /relay/provision',
      policy: 'https://c.example /relay/policy',
      media: 'https://c.example/relay/media',
    });
    expect(relayWebSocketUrl('https://c.example /')).toBe('wss://c.example /relay');
    expect(relayMediaUrl('wss://c.example/relay//relay/', 'm1')).toBe(
      'https://c.example/relay/relay/media/m1',
    );
  });

  it('builds a media item URL with the id inserted as it is', () => {
    expect(relayMediaUrl('https://c.example', 'abc123')).toBe('https://c.example/relay/media/abc123');
    expect(relayMediaUrl('wss://c.example/relay', 'a b')).toBe('https://c.example/relay/media/a b');
  });

  it('refuses non-string arguments', () => {
    expect(() => deriveRelayUrls(undefined as unknown as string)).toThrow(
      expect.objectContaining({ code: 'passthrough_invalid_argument' }),
    );
    expect(() => relayHttpBaseUrl(5 as unknown as string)).toThrow(
      expect.objectContaining({ path: 'dialUrl' }),
    );
    expect(() => relayMediaUrl('https://c', null as unknown as string)).toThrow(
      expect.objectContaining({ code: 'passthrough_invalid_argument', path: 'mediaId' }),
    );
  });
});
