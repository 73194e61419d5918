import { describe, expect, it } from 'vitest';
import { decodeFrame, decodeGatewayFrame } from './frames/decode.js';
import { CONNECTOR_LINES, GATEWAY_LINES } from './frames/test-frames.js';
import { encodeFrame } from './ndjson.js';

describe('encodeFrame, python style: byte for byte what the gateway writes', () => {
  it.each(Object.entries(GATEWAY_LINES))('%s', (_name, line) => {
    expect(encodeFrame(decodeGatewayFrame(line), { style: 'python' })).toBe(line);
  });

  it('builds the gateway outbound frame from a minimal action: defaults filled, keys in gateway order', () => {
    expect(
      encodeFrame(
        {
          type: 'outbound',
          botId: 'appShared',
          platform: 'discord',
          action: {
            metadata: { notify: true, scope_id: 'guildA', user_id: 'u1' },
            content: 'hi 😀 café',
            chat_id: 'chan1',
            op: 'send',
          },
          requestId: '9f0c6d1e2b3a4c5d8e7f601a2b3c4d5e',
        },
        { style: 'python' },
      ),
    ).toBe(GATEWAY_LINES.send);
  });
});

describe('encodeFrame, compact style', () => {
  it('writes compact JSON, raw UTF-8 and one trailing newline', () => {
    expect(
      encodeFrame({ type: 'outbound_result', requestId: 'a1', result: { success: true, message_id: 'm1' } }),
    ).toBe('{"type":"outbound_result","requestId":"a1","result":{"success":true,"message_id":"m1"}}\n');
    expect(encodeFrame({ type: 'interrupt_inbound', chat_id: 'c', session_key: 'k' })).toBe(
      '{"type":"interrupt_inbound","session_key":"k","chat_id":"c"}\n',
    );
    expect(encodeFrame({ type: 'hello', platform: 'discord', botId: 'é' })).toBe(
      '{"type":"hello","platform":"discord","botId":"é"}\n',
    );
  });

  it('fills the defaults a decoder would (result {}, reason null) and orders forward keys', () => {
    expect(encodeFrame({ type: 'outbound_result', requestId: 'r' })).toBe(
      '{"type":"outbound_result","requestId":"r","result":{}}\n',
    );
    expect(encodeFrame({ type: 'interrupt', session_key: 'k' })).toBe(
      '{"type":"interrupt","session_key":"k","reason":null}\n',
    );
    expect(
      encodeFrame({
        type: 'passthrough_forward',
        bufferId: 'b',
        forward: {
          bodyB64: 'AA==',
          headers: [],
          path: '/i',
          method: 'POST',
          botId: 'x',
          platform: 'discord',
        },
      }),
    ).toBe(
      '{"type":"passthrough_forward","forward":{"platform":"discord","botId":"x","method":"POST","path":"/i","headers":[],"bodyB64":"AA=="},"bufferId":"b"}\n',
    );
  });

  it('round-trips every catalogue frame through decodeFrame', () => {
    for (const line of [...Object.values(GATEWAY_LINES), ...Object.values(CONNECTOR_LINES)]) {
      const frame = decodeFrame(line);
      expect(decodeFrame(encodeFrame(frame))).toEqual(frame);
    }
  });

  it('writes the whole descriptor as parsed (every field, declaration order)', () => {
    const line = encodeFrame(decodeFrame(CONNECTOR_LINES.descriptor));
    expect(
      line.startsWith('{"type":"descriptor","descriptor":{"contract_version":1,"platform":"discord"'),
    ).toBe(true);
    expect(line).toContain('"emoji":"🔌"');
  });

  it('writes unknown frames and unknown actions back unchanged', () => {
    const unknown = decodeFrame('{"type":"ping","z":1,"a":[true]}');
    expect(encodeFrame(unknown)).toBe('{"type":"ping","z":1,"a":[true]}\n');
    const outbound = decodeFrame(
      '{"type":"outbound","requestId":"r","action":{"op":"delete","message_id":"m","chat_id":"c"}}',
    );
    expect(encodeFrame(outbound)).toBe(
      '{"type":"outbound","requestId":"r","action":{"op":"delete","message_id":"m","chat_id":"c"}}\n',
    );
  });

  it('refuses invalid frames with the typed error and path', () => {
    expect(() => encodeFrame({ type: 'hello', platform: 'discord' } as never)).toThrow(
      expect.objectContaining({ code: 'invalid_frame' }),
    );
    expect(() => encodeFrame({ type: 'hello', platform: 'discord' } as never)).toThrow(
      expect.objectContaining({ path: '$.botId' }),
    );
    expect(() => encodeFrame({ type: 'descriptor', descriptor: { platform: 'x' } })).toThrow(
      expect.objectContaining({
        code: 'invalid_frame',
        details: expect.objectContaining({ frameType: 'descriptor' }),
      }),
    );
    expect(() => encodeFrame(null as never)).toThrow(expect.objectContaining({ code: 'not_object' }));
    expect(() => encodeFrame([] as never)).toThrow(expect.objectContaining({ code: 'not_object' }));
  });

  it('refuses values JSON cannot carry', () => {
    const result = (value: unknown) => ({
      type: 'outbound_result' as const,
      requestId: 'r',
      result: { success: true, value },
    });
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, 1n]) {
      expect(() => encodeFrame(result(value))).toThrow(
        expect.objectContaining({ code: 'unencodable_frame' }),
      );
      expect(() => encodeFrame(result(value))).toThrow(
        expect.objectContaining({ code: 'unencodable_frame' }),
      );
    }
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => encodeFrame(result(cyclic))).toThrow(expect.objectContaining({ code: 'unencodable_frame' }));
    expect(() => encodeFrame(result(cyclic), { style: 'python' })).toThrow(
      expect.objectContaining({ code: 'unencodable_frame' }),
    );
    expect(() => encodeFrame(result(1n), { style: 'python' })).toThrow(
      expect.objectContaining({ code: 'unencodable_frame' }),
    );
  });
});
