// A connector and a gateway over an in-memory relay connection that speaks the real wire format:
// the handshake, an inbound message (with the session key the gateway will derive, and its ack), and
// an outbound `send` answered by the connector. Runs end to end and asserts:
// `pnpm --filter @agentwire-examples/relay-linked-pair start`.
import { strict as assert } from 'node:assert';
import {
  buildSessionKey,
  createDescriptor,
  createMessageEvent,
  eventFromWire,
  type MessageEvent,
  type OutboundAction,
} from '@agentwire/relay';
import { createLinkedTransportPair } from '@agentwire/relay/testing';

// What the connector advertises for Discord; createDescriptor refuses anything the gateway would misread.
const descriptor = createDescriptor({
  platform: 'discord',
  label: 'Discord',
  max_message_length: 2000,
  supports_draft_streaming: false,
  supports_edit: true,
  supports_threads: true,
  markdown_dialect: 'discord',
  len_unit: 'utf16',
});

const executed: OutboundAction[] = [];
const pair = createLinkedTransportPair({
  identities: [{ platform: 'discord', botId: 'app-1' }],
  connector: {
    descriptor,
    // The connector executes each outbound op on the platform and answers once per requestId.
    onOutbound: (action) => {
      executed.push(action);
      return { success: true, message_id: 'discord-msg-42' };
    },
  },
});

// The gateway side: handlers first, then connect and handshake.
const received: MessageEvent[] = [];
pair.gateway.onInbound((event) => {
  received.push(event);
});
assert.equal(await pair.gateway.connect(), true);
const advertised = await pair.gateway.handshake();
assert.equal(advertised.platform, 'discord');
console.log('handshake    ', advertised.platform, `max ${advertised.max_message_length}`);

// The connector delivers a platform message, buffered under bufferId b-1.
const event = createMessageEvent({
  text: 'is the nightly build green?',
  message_id: '1310467783221461022',
  source: { platform: 'discord', chat_type: 'group', chat_id: '1150094410839081999', user_id: '2841' },
});
pair.connector.pushInbound(event, { bufferId: 'b-1' });
await pair.flush();
assert.equal(received.length, 1);
assert.equal(received[0]?.text, 'is the nightly build green?');
assert.deepEqual(pair.connector.inboundAcks, ['b-1']); // acked after the gateway's handler returned
const sessionKey = buildSessionKey(eventFromWire(event).source);
assert.equal(sessionKey, 'agent:main:discord:group:1150094410839081999:2841');
console.log('inbound      ', JSON.stringify(event.text), 'acked', pair.connector.inboundAcks, sessionKey);

// The gateway answers: one outbound send, one outbound_result with the same requestId.
const result = await pair.gateway.sendOutbound({
  op: 'send',
  chat_id: '1150094410839081999',
  content: 'Yes — all 412 checks passed.',
});
assert.deepEqual(result, { success: true, message_id: 'discord-msg-42' });
assert.equal(executed[0]?.op, 'send');
console.log('outbound     ', result);

// What travelled: Python json.dumps bytes from the gateway, compact JSON from the connector.
for (const record of pair.wire.slice(0, 4))
  console.log('wire         ', JSON.stringify(record).slice(0, 110));

await pair.gateway.disconnect();
console.log('relay-linked-pair example: all assertions passed');
