import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OutboundResultObject } from '../frames/frames.js';
import type { WireChunk } from './linked-connection.js';
import { createLinkedTransportPair } from './linked-pair.js';
import { DISCORD_DESCRIPTOR, discordEvent } from './test-support.js';

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const text = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !LONE_SURROGATE.test(s));
const utf8 = new TextEncoder();

/** Cuts each line at the given fractions of its length, as text pieces or as UTF-8 byte pieces. */
function splitter(cuts: readonly number[], asBytes: boolean): (line: string) => readonly WireChunk[] {
  return (line) => {
    const whole: string | Uint8Array = asBytes ? utf8.encode(line) : line;
    const points = [...new Set(cuts.map((cut) => Math.floor(cut * whole.length)))].sort((a, b) => a - b);
    const pieces: WireChunk[] = [];
    let start = 0;
    for (const point of [...points, whole.length]) {
      pieces.push(whole.slice(start, point));
      start = point;
    }
    return pieces;
  };
}

describe('createLinkedTransportPair under random chunking', () => {
  it('delivers every inbound event in order, acks each, and answers every outbound by requestId', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { maxLength: 6 }),
        fc.array(text, { maxLength: 6 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 }),
        fc.boolean(),
        async (inboundTexts, outboundContents, cuts, asBytes) => {
          const pair = createLinkedTransportPair({
            chunk: splitter(cuts, asBytes),
            connector: {
              descriptor: DISCORD_DESCRIPTOR,
              onOutbound: async (action): Promise<OutboundResultObject> =>
                action.op === 'send' ? { success: true, message_id: action.content } : { success: false },
            },
          });
          const seen: unknown[] = [];
          pair.gateway.onInbound((event) => {
            seen.push(event.text);
          });
          expect(await pair.gateway.connect()).toBe(true);
          expect(await pair.gateway.handshake()).toEqual(DISCORD_DESCRIPTOR);
          inboundTexts.forEach((t, i) => {
            pair.connector.pushInbound(discordEvent(t), { bufferId: `b${i}` });
          });
          const results = await Promise.all(
            outboundContents.map((content) =>
              pair.gateway.sendOutbound({ op: 'send', chat_id: 'c', content }),
            ),
          );
          await pair.flush();
          expect(seen).toEqual(inboundTexts);
          expect(pair.connector.inboundAcks).toEqual(inboundTexts.map((_, i) => `b${i}`));
          expect(results).toEqual(
            outboundContents.map((content) => ({ success: true, message_id: content })),
          );
          expect(pair.gateway.errors).toEqual([]);
          expect(pair.connector.errors).toEqual([]);
          await pair.gateway.disconnect();
        },
      ),
      { numRuns: 60 },
    );
  });
});
