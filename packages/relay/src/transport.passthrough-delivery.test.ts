import { describe, expect, it } from 'vitest';
import { decodeConnectorFrame } from './frames/decode.js';
import { passthroughDeliveryFromForward } from './transport.js';

function forwardOf(line: string) {
  const frame = decodeConnectorFrame(line);
  if (frame.type !== 'passthrough_forward') throw new Error(`not a passthrough frame: ${frame.type}`);
  return frame.forward;
}

describe('passthroughDeliveryFromForward', () => {
  it('decodes the body to the forwarded bytes and keeps the headers in order', () => {
    const delivery = passthroughDeliveryFromForward(
      forwardOf(
        '{"type":"passthrough_forward","forward":{"platform":"discord","botId":"app","method":"POST",' +
          '"path":"/interactions","headers":[["b","2"],["a","1"]],"bodyB64":"eyJ0eXBlIjoxfQ==","profile":"ops"}}',
      ),
    );
    expect(delivery).toEqual({
      platform: 'discord',
      botId: 'app',
      method: 'POST',
      path: '/interactions',
      headers: [
        ['b', '2'],
        ['a', '1'],
      ],
      body: new TextEncoder().encode('{"type":1}'),
      profile: 'ops',
    });
  });

  it('gives an empty body for unpadded base64 and null for a missing profile, as the gateway', () => {
    const delivery = passthroughDeliveryFromForward(
      forwardOf('{"type":"passthrough_forward","forward":{"bodyB64":"eyJ0eXBlIjoxfQ"}}'),
    );
    expect(delivery.body).toEqual(new Uint8Array(0));
    expect(delivery.profile).toBeNull();
    expect(delivery.platform).toBe('');
    expect(delivery.headers).toEqual([]);
  });
});
