// Relay frame decoding: decodeConnectorFrame / decodeGatewayFrame (JSON parse + schema validation +
// defaults) and FrameDecoder over a batch of lines, against plain JSON.parse of the same text.
// Goal from the relay core issue: decode+validate reaches ≥ 0.5× of JSON.parse alone.
import { decodeConnectorFrame, decodeGatewayFrame, encodeFrame, FrameDecoder } from '@agentwire/relay';
import { type BenchOptions, ratio, runGroup } from './harness.js';

// A connector's inbound frame for a Discord guild message with a reply, an attachment and recent
// channel context, written as a connector writes it (compact JSON, raw UTF-8).
const inboundLine = encodeFrame({
  type: 'inbound',
  event: {
    text: 'Can you check why the nightly build failed? The last green run was yesterday — café ☕ fixed the flaky test.',
    message_type: 'text',
    message_id: '1310467783221461022',
    reply_to_message_id: '1310467700011223344',
    reply_to: { text: 'nightly build #412 failed', author: 'ci-bot', is_own: false },
    media_urls: ['https://connector.example/relay/media/m_0123abcd'],
    media: [
      {
        url: 'https://connector.example/relay/media/m_0123abcd',
        kind: 'image',
        mime: 'image/png',
        size: 48213,
      },
    ],
    context: [
      {
        text: 'did anyone touch the cache config?',
        source: { user_name: 'bo', user_id: '284102349310836001' },
      },
      { text: 'not me', source: { user_name: 'cy', user_id: '284102349310836002' } },
    ],
    source: {
      platform: 'discord',
      chat_id: '1150094410839081999',
      chat_name: 'build',
      chat_type: 'group',
      user_id: '284102349310836737',
      user_name: 'ann',
      thread_id: null,
      chat_topic: 'CI and releases',
      scope_id: '1150094410839081031',
      guild_id: '1150094410839081031',
      message_id: '1310467783221461022',
      is_bot: false,
      message_is_edit: false,
    },
  },
  bufferId: 'b-4711',
});

// The gateway's outbound `send` of a markdown answer, written as the gateway writes it (json.dumps).
const outboundLine = encodeFrame(
  {
    type: 'outbound',
    requestId: '9f0c6d1e2b3a4c5d8e7f601a2b3c4d5e',
    action: {
      op: 'send',
      chat_id: '1150094410839081999',
      content:
        'The nightly build failed in **test:integration** — `cache.spec.ts` timed out after 30 s.\n\n' +
        '1. The cache directory moved in #4182.\n2. The CI image still mounts the old path.\n\n' +
        'Fix: update `CACHE_DIR` in the workflow, or revert the move. Want me to open a PR? 🛠️',
      reply_to: '1310467783221461022',
      metadata: { scope_id: '1150094410839081031', user_id: '284102349310836737', notify: true },
    },
    platform: 'discord',
    botId: 'appShared',
  },
  { style: 'python' },
);

const BATCH_FRAMES = 100;
// What a gateway reader sees from a busy connector: many inbound lines in one stream.
const inboundBatch = inboundLine.repeat(BATCH_FRAMES);

function parseLines(batch: string): unknown[] {
  const frames: unknown[] = [];
  for (const line of batch.split('\n')) if (line !== '') frames.push(JSON.parse(line));
  return frames;
}

export function benchRelayFrames(options?: BenchOptions) {
  const decoder = new FrameDecoder({ decode: decodeConnectorFrame });
  if (
    decoder.push(inboundBatch).length !== BATCH_FRAMES ||
    decodeGatewayFrame(outboundLine).type !== 'outbound'
  ) {
    throw new Error('benchmark self-check failed: the frames do not decode');
  }
  const goals: string[] = [];
  const groups = [
    {
      label: `inbound frame (${inboundLine.length} chars)`,
      parse: () => JSON.parse(inboundLine),
      decode: () => decodeConnectorFrame(inboundLine),
      name: 'decodeConnectorFrame',
    },
    {
      label: `outbound send frame (${outboundLine.length} chars, python json.dumps)`,
      parse: () => JSON.parse(outboundLine),
      decode: () => decodeGatewayFrame(outboundLine),
      name: 'decodeGatewayFrame',
    },
    {
      label: `batch of ${BATCH_FRAMES} inbound lines (${inboundBatch.length} chars)`,
      parse: () => parseLines(inboundBatch),
      decode: () => decoder.push(inboundBatch),
      name: 'FrameDecoder.push',
    },
  ];
  for (const { label, parse, decode, name } of groups) {
    const results = runGroup(
      `relay frame decoding — ${label}`,
      'JSON.parse',
      [
        { name: 'JSON.parse', fn: parse },
        { name, fn: decode },
      ],
      options,
    );
    const r = ratio(results, name, 'JSON.parse');
    goals.push(
      `decode+validate vs JSON.parse, ${label} (${name}): ${r.toFixed(2)}× (goal ≥ 0.5×) ${r >= 0.5 ? 'met' : 'NOT met'}`,
    );
  }
  return goals;
}
