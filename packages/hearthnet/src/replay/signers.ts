import { z } from 'zod';
import type { SignedEvent } from '../events/envelope.js';
import { coSignerSchema } from '../events/event-data.js';
import { verifyCoSignature } from './co-signatures.js';
import { AUTHORISED, type Authorisation, refuse } from './rejection.js';

const coSignersSchema = z.array(coSignerSchema);

/**
 * Checks that an event carries at least `required` distinct eligible signers over its intent (`data`
 * without `co_signers`, contract §4.18). The author counts as one signer when eligible: the event
 * signature covers the intent. Every entry of `data.co_signers` must verify (`invalid_co_signature`,
 * even from a node that would not count); an entry by a node that is not `eligible` is not counted,
 * and a node counts once however often it signs.
 */
export function checkSigners(
  event: SignedEvent,
  required: number,
  eligible: (nodeId: string) => boolean,
): Authorisation {
  const data = event.data as Readonly<Record<string, unknown>>;
  const parsed = coSignersSchema.safeParse(data['co_signers'] ?? []);
  if (!parsed.success) {
    return refuse(
      event.event_id,
      'invalid_data',
      'bad_request',
      'co_signers must be a list of {node_id, signature}',
    );
  }
  const signers = new Set<string>();
  if (eligible(event.author)) signers.add(event.author);
  for (const coSigner of parsed.data) {
    if (!verifyCoSignature(data, coSigner)) {
      return refuse(
        event.event_id,
        'invalid_co_signature',
        'invalid_signature',
        `the co-signature of ${coSigner.node_id} does not verify over the intent`,
      );
    }
    if (eligible(coSigner.node_id)) signers.add(coSigner.node_id);
  }
  if (signers.size < required) {
    return refuse(
      event.event_id,
      'insufficient_signatures',
      'unauthorized',
      `${event.event_type} needs ${required} distinct trusted signers, got ${signers.size}`,
    );
  }
  return AUTHORISED;
}
