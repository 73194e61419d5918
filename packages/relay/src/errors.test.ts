import { describe, expect, it } from 'vitest';
import {
  buildSessionKey,
  DescriptorError,
  decodeGatewayFrame,
  decodePromptCallback,
  FrameError,
  mintRelayToken,
  PassthroughError,
  parseDescriptor,
  RelayAuthError,
  RelayError,
  SessionKeyError,
  SessionSourceError,
  sessionSourceToWire,
} from './index.js';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('RelayError', () => {
  it('is the base of every input error family, each with a stable code and a path', () => {
    const cases: [unknown, abstract new (...args: never[]) => Error][] = [
      [thrown(() => parseDescriptor('{"platform": "x"}')), DescriptorError],
      [thrown(() => decodeGatewayFrame('[1]')), FrameError],
      [thrown(() => mintRelayToken('gw', '')), RelayAuthError],
      [thrown(() => decodePromptCallback('nope')), PassthroughError],
      [
        thrown(() => buildSessionKey({ platform: 'whatsapp', chat_type: 'dm', chat_id: '', user_id: '++' })),
        SessionKeyError,
      ],
      [thrown(() => sessionSourceToWire({ platform: 1 } as never)), SessionSourceError],
    ];
    for (const [error, family] of cases) {
      expect(error).toBeInstanceOf(family);
      expect(error).toBeInstanceOf(RelayError);
      const { code, path, name } = error as RelayError;
      expect(code).toMatch(/^[a-z0-9_]+$/);
      expect(typeof path).toBe('string');
      expect(name).toBe((error as object).constructor.name);
    }
  });
});
