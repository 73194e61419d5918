import { describe, expect, it } from 'vitest';
import { inboundAckLine } from '../client/client-connection.js';
import { FrameDecoder } from '../ndjson.js';
import { decodeConnectorFrame } from './decode.js';

/** The `bufferId` an `inbound` line decodes to. */
function bufferIdOf(bufferIdJson: string): unknown {
  const frame = decodeConnectorFrame(
    `{"type": "inbound", "event": {"text": "hi"}, "bufferId": ${bufferIdJson}}`,
  );
  if (frame.type !== 'inbound') throw new Error(`decoded as ${frame.type}`);
  return frame.bufferId;
}

describe('bufferId of connector frames (what the gateway acks: str(bufferId) when truthy)', () => {
  // Each pair is the wire value and the inbound_ack the baseline gateway (339d968) wrote for it.
  it.each([
    ['"b-1"', '{"type": "inbound_ack", "bufferId": "b-1"}\n'],
    ['7', '{"type": "inbound_ack", "bufferId": "7"}\n'],
    ['1e-05', '{"type": "inbound_ack", "bufferId": "1e-05"}\n'],
    ['true', '{"type": "inbound_ack", "bufferId": "True"}\n'],
    ['[1, "a"]', `{"type": "inbound_ack", "bufferId": "[1, 'a']"}\n`],
    ['{"a": null}', `{"type": "inbound_ack", "bufferId": "{'a': None}"}\n`],
    ['1e400', '{"type": "inbound_ack", "bufferId": "inf"}\n'],
  ])('%s is acked as the gateway acks it', (wire, ack) => {
    const bufferId = bufferIdOf(wire);
    expect(typeof bufferId).toBe('string');
    expect(inboundAckLine(bufferId as string)).toBe(ack);
  });

  it.each(['0', '-0.0', 'false', '[]', '{}', 'null'])(
    'a falsy %s keeps the event and reads as null (the gateway handles it and never acks)',
    (wire) => {
      expect(bufferIdOf(wire)).toBeNull();
    },
  );

  it('keeps a falsy string as it is (never acked either)', () => {
    expect(bufferIdOf('""')).toBe('');
  });

  it.each(['18446744073709551616', '1e16', '[-0.0]', '[9007199254740993]'])(
    'refuses %s, whose Python str() JavaScript cannot know',
    (wire) => {
      expect(() => bufferIdOf(wire)).toThrow(expect.objectContaining({ code: 'invalid_frame' }));
    },
  );

  it('reads passthrough_forward the same way, and the streaming decoder agrees', () => {
    const line = '{"type": "passthrough_forward", "forward": {"platform": "discord"}, "bufferId": true}';
    const decoded = decodeConnectorFrame(line);
    expect(decoded).toMatchObject({ type: 'passthrough_forward', bufferId: 'True' });
    const decoder = new FrameDecoder({ decode: decodeConnectorFrame });
    expect(decoder.push(`${line}\n`)).toEqual([{ ok: true, frame: decoded }]);
  });
});
