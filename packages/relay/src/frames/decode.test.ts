import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { isFrameError, type RelayError } from '../errors.js';
import { OUTBOUND_OPS } from './actions.js';
import { decodeConnectorFrame, decodeFrame, decodeGatewayFrame, decodeOpResult } from './decode.js';

import { CONNECTOR_LINES, GATEWAY_LINES, REQUEST_ID } from './test-frames.js';

function actionOf(line: string) {
  const frame = decodeGatewayFrame(line);
  if (frame.type !== 'outbound') throw new Error(`expected outbound, got ${frame.type}`);
  return frame.action;
}

function expectValidationError(fn: () => unknown, path: string, frameType: string) {
  try {
    fn();
  } catch (error) {
    expect(error).toMatchObject({ name: 'RelayError', code: 'invalid_frame', path, details: { frameType } });
    return error as RelayError;
  }
  throw new Error('expected an invalid_frame RelayError');
}

describe('gateway → connector frames', () => {
  it('hello: the default relay identity with an empty botId, no manifest', () => {
    expect(decodeGatewayFrame(GATEWAY_LINES.helloRelay)).toEqual({
      type: 'hello',
      platform: 'relay',
      botId: '',
    });
  });

  it('hello: the Discord identity carries the command manifest with Discord option objects', () => {
    const frame = decodeGatewayFrame(GATEWAY_LINES.helloDiscord);
    expect(frame).toEqual({
      type: 'hello',
      platform: 'discord',
      botId: 'appShared',
      command_manifest: [
        { name: 'new', description: 'Start a new session' },
        {
          name: 'model',
          description: 'Show or switch the model',
          options: [
            {
              type: 3,
              name: 'name',
              description: 'Model name',
              required: false,
              choices: [{ name: 'fast', value: 'fast' }],
            },
          ],
        },
      ],
    });
  });

  it('outbound: requestId, action, frame platform and botId; \\u escapes and surrogate pairs decode', () => {
    expect(decodeGatewayFrame(GATEWAY_LINES.send)).toEqual({
      type: 'outbound',
      requestId: REQUEST_ID,
      action: {
        op: 'send',
        chat_id: 'chan1',
        content: 'hi 😀 café',
        reply_to: null,
        metadata: { notify: true, scope_id: 'guildA', user_id: 'u1' },
      },
      platform: 'discord',
      botId: 'appShared',
    });
  });

  it('outbound: platform without botId (the gateway omits botId, never sends "")', () => {
    const frame = decodeGatewayFrame(GATEWAY_LINES.sendReply);
    expect(frame).toMatchObject({ type: 'outbound', platform: 'telegram' });
    expect(frame).not.toHaveProperty('botId');
    expect(actionOf(GATEWAY_LINES.sendReply)).toMatchObject({ metadata: { thread_id: '17' } });
  });

  it('outbound: neither platform nor botId for a chat never seen inbound', () => {
    const frame = decodeGatewayFrame(GATEWAY_LINES.edit);
    expect(Object.keys(frame)).toEqual(['type', 'requestId', 'action']);
  });

  it('interrupt: reason is null when absent, and defaults to null when missing', () => {
    expect(decodeGatewayFrame(GATEWAY_LINES.interrupt)).toEqual({
      type: 'interrupt',
      session_key: 'agent:main:telegram:dm:42',
      reason: null,
    });
    expect(decodeGatewayFrame({ type: 'interrupt', session_key: 'k' })).toEqual({
      type: 'interrupt',
      session_key: 'k',
      reason: null,
    });
    expect(decodeGatewayFrame({ type: 'interrupt', session_key: 'k', reason: 'user' })).toMatchObject({
      reason: 'user',
    });
  });

  it('going_idle and inbound_ack (bufferId is a string: the gateway str()s it)', () => {
    expect(decodeGatewayFrame(GATEWAY_LINES.goingIdle)).toEqual({ type: 'going_idle' });
    expect(decodeGatewayFrame(GATEWAY_LINES.inboundAck)).toEqual({ type: 'inbound_ack', bufferId: '7' });
    expectValidationError(
      () => decodeGatewayFrame({ type: 'inbound_ack', bufferId: 7 }),
      '$.bufferId',
      'inbound_ack',
    );
  });

  it('connector frame types echoed back to a connector are unknown (ignored), like the gateway does', () => {
    for (const line of Object.values(CONNECTOR_LINES)) {
      const frame = decodeGatewayFrame(line);
      expect(frame.type).toBe('unknown');
      if (frame.type === 'unknown') expect(frame.raw).toEqual(JSON.parse(line));
    }
  });
});

describe('outbound actions, one per op (§7.2)', () => {
  it('send: reply_to and metadata are filled when a newer gateway omits them', () => {
    expect(
      actionOf(`{"type":"outbound","requestId":"r","action":{"op":"send","chat_id":"c","content":"x"}}`),
    ).toEqual({
      op: 'send',
      chat_id: 'c',
      content: 'x',
      reply_to: null,
      metadata: {},
    });
  });

  it('edit', () => {
    expect(actionOf(GATEWAY_LINES.edit)).toEqual({
      op: 'edit',
      chat_id: 'chan1',
      message_id: 'm1',
      content: 'edited',
      metadata: { scope_id: 'guildA' },
    });
  });

  it('typing, and the Slack clear with content ""', () => {
    expect(actionOf(GATEWAY_LINES.typing)).toEqual({
      op: 'typing',
      chat_id: 'chan1',
      metadata: { scope_id: 'guildA', user_id: 'u1' },
    });
    expect(actionOf(GATEWAY_LINES.typingClear)).toEqual({
      op: 'typing',
      chat_id: 'C123',
      content: '',
      metadata: { slack_team_id: 'T1' },
    });
  });

  it('follow_up names the session and the capability kind, never a token', () => {
    expect(actionOf(GATEWAY_LINES.followUp)).toEqual({
      op: 'follow_up',
      session_key: 'agent:main:discord:group:chan1:u1',
      kind: 'discord.interaction_token',
      content: 'done',
      metadata: {},
    });
  });

  it('get_chat_info has no metadata', () => {
    expect(actionOf(GATEWAY_LINES.getChatInfo)).toEqual({ op: 'get_chat_info', chat_id: 'chan1' });
  });

  it('send_media with filename; content defaults to ""', () => {
    expect(actionOf(GATEWAY_LINES.sendMedia)).toEqual({
      op: 'send_media',
      chat_id: 'chan1',
      media_kind: 'image',
      source_url: 'https://connector.example/relay/media/abc',
      content: '',
      reply_to: null,
      metadata: {},
      filename: 'chart.png',
    });
    const action = actionOf(
      '{"type":"outbound","requestId":"r","action":{"op":"send_media","chat_id":"c","media_kind":"voice","source_url":"u"}}',
    );
    expect(action).toMatchObject({ content: '', reply_to: null, metadata: {} });
    expect(action).not.toHaveProperty('filename');
  });

  it('send_media refuses a media_kind outside image/voice/audio/video/document', () => {
    expectValidationError(
      () =>
        decodeGatewayFrame({
          type: 'outbound',
          requestId: 'r',
          action: { op: 'send_media', chat_id: 'c', media_kind: 'gif', source_url: 'u' },
        }),
      '$.action.media_kind',
      'outbound',
    );
  });

  it('prompt with options, styles and an int timeout_s', () => {
    expect(actionOf(GATEWAY_LINES.prompt)).toEqual({
      op: 'prompt',
      chat_id: 'chan1',
      content: 'Run rm -rf build?',
      prompt_kind: 'approval',
      prompt_id: 'a1b2c3d4',
      options: [
        { id: 'once', label: 'Allow once', style: 'success' },
        { id: 'deny', label: 'Deny', style: 'danger' },
      ],
      reply_to: null,
      metadata: {},
      timeout_s: 300,
    });
    expectValidationError(
      () =>
        decodeGatewayFrame({
          type: 'outbound',
          requestId: 'r',
          action: {
            op: 'prompt',
            chat_id: 'c',
            content: '?',
            prompt_kind: 'clarify',
            prompt_id: 'p',
            options: [{ id: 'c0' }],
          },
        }),
      '$.action.options[0].label',
      'outbound',
    );
  });

  it('react: remove is always a boolean (defaults to false)', () => {
    expect(actionOf(GATEWAY_LINES.react)).toEqual({
      op: 'react',
      chat_id: 'chan1',
      message_id: 'm1',
      emoji: '👀',
      remove: false,
      metadata: { scope_id: 'guildA' },
    });
  });

  it('thread_create and thread_rename with its only_if_current_name guard', () => {
    expect(actionOf(GATEWAY_LINES.threadCreate)).toEqual({
      op: 'thread_create',
      chat_id: 'chan1',
      thread_name: 'handoff',
      metadata: {},
    });
    expect(actionOf(GATEWAY_LINES.threadRename)).toEqual({
      op: 'thread_rename',
      chat_id: 'chan1',
      message_id: 'th1',
      thread_name: 'Fix the build',
      metadata: {},
      only_if_current_name: 'handoff',
    });
  });

  it('keeps unknown action keys (newer gateways add some)', () => {
    const action = actionOf(
      '{"type":"outbound","requestId":"r","action":{"op":"thread_create","chat_id":"c","thread_name":"t","metadata":{"format_hints":{"x":1}},"message_id":"anchor","future":[1]}}',
    );
    expect(action).toEqual({
      op: 'thread_create',
      chat_id: 'c',
      thread_name: 't',
      metadata: { format_hints: { x: 1 } },
      message_id: 'anchor',
      future: [1],
    });
  });

  it('an unknown op, a missing op and a non-string op become an UnknownAction holding the raw object', () => {
    for (const raw of [
      { op: 'delete', chat_id: 'c', message_id: 'm' },
      { chat_id: 'c' },
      { op: 7 },
      { op: 'unknown', x: 1 },
    ]) {
      const frame = decodeGatewayFrame({ type: 'outbound', requestId: 'r', action: raw });
      expect(frame).toEqual({
        type: 'outbound',
        requestId: 'r',
        action: { op: 'unknown', rawOp: raw.op, raw },
      });
    }
  });

  it('a wrongly typed field of a known op names its path, and the error keeps the frame for the requestId', () => {
    const error = expectValidationError(
      () =>
        decodeGatewayFrame({
          type: 'outbound',
          requestId: 'r9',
          action: { op: 'send', chat_id: 5, content: 'x' },
        }),
      '$.action.chat_id',
      'outbound',
    );
    expect(error.details?.raw?.['requestId']).toBe('r9');
    expectValidationError(
      () => decodeGatewayFrame({ type: 'outbound', requestId: 'r', action: 'send' }),
      '$.action',
      'outbound',
    );
    expectValidationError(
      () => decodeGatewayFrame({ type: 'outbound', action: { op: 'typing', chat_id: 'c' } }),
      '$.requestId',
      'outbound',
    );
  });

  it('covers every op of the catalogue', () => {
    const ops = [
      GATEWAY_LINES.send,
      GATEWAY_LINES.edit,
      GATEWAY_LINES.typing,
      GATEWAY_LINES.followUp,
      GATEWAY_LINES.getChatInfo,
      GATEWAY_LINES.sendMedia,
      GATEWAY_LINES.prompt,
      GATEWAY_LINES.react,
      GATEWAY_LINES.threadCreate,
      GATEWAY_LINES.threadRename,
    ].map((line) => actionOf(line).op);
    expect(ops).toEqual([...OUTBOUND_OPS]);
  });
});

describe('connector → gateway frames', () => {
  it('descriptor: read with the gateway from_json rules (defaults filled, supported_ops kept)', () => {
    const frame = decodeConnectorFrame(CONNECTOR_LINES.descriptor);
    expect(frame).toMatchObject({
      type: 'descriptor',
      descriptor: {
        platform: 'discord',
        max_message_length: 2000,
        emoji: '🔌',
        pii_safe: false,
        supported_ops: ['send', 'edit', 'typing', 'react'],
      },
    });
  });

  it('descriptor: a missing descriptor reads as {} and fails on the required fields, as in the gateway', () => {
    expectValidationError(
      () => decodeConnectorFrame({ type: 'descriptor' }),
      '$.descriptor.contract_version',
      'descriptor',
    );
    expectValidationError(
      () => decodeConnectorFrame({ type: 'descriptor', descriptor: null }),
      '$.descriptor',
      'descriptor',
    );
  });

  it('inbound with a bufferId; a missing event reads as {}', () => {
    const frame = decodeConnectorFrame(CONNECTOR_LINES.inbound);
    expect(frame).toEqual({
      type: 'inbound',
      event: JSON.parse(CONNECTOR_LINES.inbound).event,
      bufferId: 'b-1',
    });
    expect(decodeConnectorFrame({ type: 'inbound' })).toEqual({ type: 'inbound', event: {} });
    expectValidationError(() => decodeConnectorFrame({ type: 'inbound', event: [] }), '$.event', 'inbound');
  });

  it('inbound reads a non-string bufferId as the gateway str()s it, and 0 as no bufferId (never acked)', () => {
    expect(decodeConnectorFrame({ type: 'inbound', event: {}, bufferId: 7 })).toEqual({
      type: 'inbound',
      event: {},
      bufferId: '7',
    });
    expect(decodeConnectorFrame({ type: 'inbound', event: {}, bufferId: 0 })).toEqual({
      type: 'inbound',
      event: {},
      bufferId: null,
    });
    expect(decodeConnectorFrame({ type: 'inbound', event: {}, bufferId: true })).toEqual({
      type: 'inbound',
      event: {},
      bufferId: 'True',
    });
    expectValidationError(
      () => decodeConnectorFrame({ type: 'inbound', event: {}, bufferId: 2 ** 64 }),
      '$.bufferId',
      'inbound',
    );
  });

  it('outbound_result: a missing result reads as {}', () => {
    expect(decodeConnectorFrame(CONNECTOR_LINES.outboundResult)).toEqual({
      type: 'outbound_result',
      requestId: REQUEST_ID,
      result: { success: true, message_id: 'm1' },
    });
    expect(decodeConnectorFrame({ type: 'outbound_result', requestId: 'r' })).toEqual({
      type: 'outbound_result',
      requestId: 'r',
      result: {},
    });
  });

  it('interrupt_inbound: missing keys read as ""', () => {
    expect(decodeConnectorFrame(CONNECTOR_LINES.interruptInbound)).toEqual({
      type: 'interrupt_inbound',
      session_key: 'agent:main:discord:group:chan1:u1',
      chat_id: 'chan1',
    });
    expect(decodeConnectorFrame({ type: 'interrupt_inbound' })).toEqual({
      type: 'interrupt_inbound',
      session_key: '',
      chat_id: '',
    });
  });

  it('passthrough_forward: headers as [k, v] pairs, missing forward keys read as "" / []', () => {
    expect(decodeConnectorFrame(CONNECTOR_LINES.passthroughForward)).toEqual({
      type: 'passthrough_forward',
      forward: {
        platform: 'discord',
        botId: 'appShared',
        method: 'POST',
        path: '/interactions',
        headers: [['content-type', 'application/json']],
        bodyB64: 'eyJ0eXBlIjoxfQ==',
      },
      bufferId: 'pb-1',
    });
    expect(decodeConnectorFrame({ type: 'passthrough_forward' })).toEqual({
      type: 'passthrough_forward',
      forward: { platform: '', botId: '', method: '', path: '', headers: [], bodyB64: '' },
    });
    expectValidationError(
      () => decodeConnectorFrame({ type: 'passthrough_forward', forward: { headers: [['a']] } }),
      '$.forward.headers[0]',
      'passthrough_forward',
    );
  });

  it('going_idle_ack', () => {
    expect(decodeConnectorFrame(CONNECTOR_LINES.goingIdleAck)).toEqual({ type: 'going_idle_ack' });
  });

  it('gateway frame types sent to a gateway are unknown (ignored)', () => {
    for (const line of Object.values(GATEWAY_LINES)) expect(decodeConnectorFrame(line).type).toBe('unknown');
  });
});

describe('decodeFrame (either direction) and the errors', () => {
  it('decodes every frame type of the catalogue', () => {
    const types = [...Object.values(GATEWAY_LINES), ...Object.values(CONNECTOR_LINES)].map(
      (l) => decodeFrame(l).type,
    );
    expect(new Set(types)).toEqual(
      new Set([
        'hello',
        'outbound',
        'interrupt',
        'going_idle',
        'inbound_ack',
        'descriptor',
        'inbound',
        'outbound_result',
        'interrupt_inbound',
        'passthrough_forward',
        'going_idle_ack',
      ]),
    );
  });

  it('unknown, missing, non-string and prototype-named types are unknown frames', () => {
    for (const raw of [
      { type: 'ping' },
      {},
      { type: ['hello'] },
      { type: 'constructor' },
      { type: '__proto__' },
    ]) {
      expect(decodeFrame(raw)).toEqual({ type: 'unknown', rawType: raw.type, raw });
    }
  });

  it('drops unknown top-level keys of a known frame (the gateway ignores them)', () => {
    expect(decodeFrame({ type: 'going_idle', extra: 1 })).toEqual({ type: 'going_idle' });
  });

  it('malformed JSON, Python-only literals and a BOM are malformed_json', () => {
    for (const text of ['{bad', '', '{"type": NaN}', '\ufeff{"type":"going_idle"}', '{"a":1}x']) {
      expect(() => decodeFrame(text)).toThrow(expect.objectContaining({ code: 'malformed_json' }));
      expect(() => decodeFrame(text)).toThrow(expect.objectContaining({ code: 'malformed_json', path: '$' }));
    }
  });

  it('JSON that is not an object is not_object, from text or a value', () => {
    for (const value of ['[]', '"hello"', '1', 'null', 'true', [], null, 3, 'x'.repeat(0)]) {
      const input = value;
      if (input === '') continue;
      expect(() => decodeFrame(input)).toThrow(expect.objectContaining({ code: 'not_object' }));
    }
    expect(() => decodeFrame(undefined)).toThrow(expect.objectContaining({ code: 'not_object' }));
  });

  it('every error is a RelayError with a frame code and a name equal to its class', () => {
    for (const fn of [
      () => decodeFrame('{'),
      () => decodeFrame('[]'),
      () => decodeFrame({ type: 'hello' }),
    ]) {
      try {
        fn();
        throw new Error('no error');
      } catch (error) {
        expect(isFrameError(error)).toBe(true);
        expect((error as Error).name).toBe((error as Error).constructor.name);
      }
    }
  });

  it('words the reason in English, whatever error map the application gives zod', () => {
    const { customError } = z.config();
    z.config({ customError: () => 'the application message' });
    try {
      expect(() => decodeGatewayFrame({ type: 'hello', platform: 'relay', botId: 7 })).toThrow(
        expect.objectContaining({
          path: '$.botId',
          message: 'invalid hello frame: Invalid input: expected string, received number at $.botId',
        }),
      );
      expect(() => decodeGatewayFrame(GATEWAY_LINES.send.replace('"content"', '"body"'))).toThrow(
        expect.objectContaining({
          path: '$.action.content',
          message:
            'invalid outbound frame: Invalid input: expected string, received undefined at $.action.content',
        }),
      );
    } finally {
      z.config({ customError });
    }
  });
});

describe('decodeOpResult', () => {
  it('checks a result against its op', () => {
    expect(decodeOpResult('send', { success: true, message_id: 'm1' })).toEqual({
      success: true,
      message_id: 'm1',
    });
    expect(decodeOpResult('thread_create', { success: true, thread_id: 't1' }).thread_id).toBe('t1');
    expect(decodeOpResult('get_chat_info', { chat_info: { name: 'general', type: 'group' } })).toEqual({
      chat_info: { name: 'general', type: 'group' },
    });
    expect(
      decodeOpResult('send', {
        success: false,
        code: 'egress_declined',
        error: 'discord egress declined: target is not an approved destination for this connection',
      }),
    ).toMatchObject({ code: 'egress_declined' });
  });

  it('refuses a missing success, a wrongly typed message_id and a non-object', () => {
    expect(() => decodeOpResult('react', {})).toThrow(expect.objectContaining({ path: '$.result.success' }));
    expect(() => decodeOpResult('send', { success: true, message_id: 5 })).toThrow(
      expect.objectContaining({ code: 'invalid_frame', path: '$.result.message_id' }),
    );
    expect(() => decodeOpResult('send', [])).toThrow(expect.objectContaining({ code: 'not_object' }));
  });
});
