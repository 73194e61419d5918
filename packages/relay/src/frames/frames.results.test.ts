import { describe, expect, it } from 'vitest';
import { EGRESS_DECLINED_CODE, egressDeclinedResult, isEgressDeclined } from './actions.js';
import { decodeOpResult } from './decode.js';
import { readChatInfo } from './frames.js';

describe('readChatInfo (the gateway get_chat_info projection)', () => {
  it('reads chat_info, else the result itself, with chat_id / "dm" defaults', () => {
    expect(readChatInfo({ success: true, chat_info: { name: 'general', type: 'group' } }, 'c1')).toEqual({
      name: 'general',
      type: 'group',
    });
    expect(readChatInfo({ name: 'top', type: 'channel' }, 'c1')).toEqual({ name: 'top', type: 'channel' });
    expect(readChatInfo({ success: false }, 'c1')).toEqual({ name: 'c1', type: 'dm' });
    expect(readChatInfo({ chat_info: {}, name: 'outer' }, 'c1')).toEqual({ name: 'outer', type: 'dm' });
    expect(readChatInfo({ chat_info: { name: null } }, 'c1')).toEqual({ name: null, type: 'dm' });
  });
});

describe('egress_declined', () => {
  it('builds the uniform refusal, which is a valid failed result of every op', () => {
    const result = egressDeclinedResult('slack');
    expect(result).toEqual({
      success: false,
      code: EGRESS_DECLINED_CODE,
      error: 'slack egress declined: target is not an approved destination for this connection',
    });
    expect(result).not.toHaveProperty('ambiguous');
    expect(decodeOpResult('send', result)).toEqual(result);
    expect(decodeOpResult('thread_create', result)).toEqual(result);
  });

  it('recognises a refusal by code or by text, in any case, as newer gateways do', () => {
    expect(isEgressDeclined({ success: false, code: 'egress_declined' })).toBe(true);
    expect(isEgressDeclined({ success: false, error: 'Discord EGRESS DECLINED: nope' })).toBe(true);
    expect(isEgressDeclined({ success: false, error: 'egress declined without colon' })).toBe(false);
    expect(isEgressDeclined({ success: false, error: 'rate limited' })).toBe(false);
    expect(isEgressDeclined({ success: false, error: 5 })).toBe(false);
  });
});
