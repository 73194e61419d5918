import {
  BadRequestError,
  InternalError,
  NotFoundError,
  RevokedError,
  UnauthorizedError,
} from '../capabilities/hearthnet-errors.js';
import { HearthNetLocalError } from '../errors.js';
import { isTrustStatus, meetsTrustLevel, type TrustPolicy, type TrustStatus } from '../wire/handler/trust.js';
import { type ResolvedTopic, resolveWireTopic } from './topics.js';

/**
 * Decides whether an authenticated caller may subscribe to a topic over the wire (contract §8
 * "Subscriber"), in this order:
 * 1. a revoked caller → `revoked` (403);
 * 2. a topic outside the catalogue → `not_found` (404); a local-only topic → `bad_request` (400);
 * 3. `members` topics need member trust, `anchors` topics anchor trust, and a
 *    `chat.message.<recipient>` topic member trust and the caller being `<recipient>` → otherwise
 *    `unauthorized` (401, the status contract §5.5 gives the code).
 *
 * @returns the resolved topic.
 */
export async function authoriseSubscriber(
  trust: TrustPolicy,
  caller: string,
  topic: unknown,
): Promise<ResolvedTopic> {
  const status = await trustStatusOf(trust, caller);
  if (status === 'revoked') throw new RevokedError(`node ${caller} is revoked`);
  let resolved: ResolvedTopic;
  try {
    resolved = resolveWireTopic(topic, 'subscribe to');
  } catch (error) {
    if (error instanceof HearthNetLocalError && error.code === 'unknown_topic') {
      throw new NotFoundError(error.message, { cause: error });
    }
    if (error instanceof HearthNetLocalError && error.code === 'local_only_topic') {
      throw new BadRequestError(error.message, { cause: error });
    }
    throw error;
  }
  const { audience } = resolved.definition;
  if (!meetsTrustLevel(status, 'member')) {
    throw new UnauthorizedError(`${resolved.topic} is for community members; the caller is ${status}`);
  }
  if (audience === 'anchors' && status !== 'anchor') {
    throw new UnauthorizedError(`${resolved.topic} is for anchors; the caller is ${status}`);
  }
  if (audience === 'recipient' && resolved.recipient !== caller) {
    throw new UnauthorizedError(`${resolved.topic} is for its recipient only`);
  }
  return resolved;
}

/** The caller's trust status, checked to be one (a policy answering anything else is a server bug). */
export async function trustStatusOf(trust: TrustPolicy, caller: string): Promise<TrustStatus> {
  const status = await trust.trustOf(caller);
  if (!isTrustStatus(status)) throw new InternalError(`the trust policy answered ${JSON.stringify(status)}`);
  return status;
}
