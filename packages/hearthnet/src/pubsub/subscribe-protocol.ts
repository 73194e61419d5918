import { z } from 'zod';
import { BadRequestError } from '../capabilities/hearthnet-errors.js';
import type { SignedParameters } from './signed-request.js';

/** The long-poll endpoint of contract §8: `GET /pubsub/v1/subscribe?topic=…&cursor=…&wait_ms=…&limit=…`. */
export const PUBSUB_SUBSCRIBE_PATH = '/pubsub/v1/subscribe';
/** How long a long poll waits for an item when the request names no `wait_ms`: 25 s. */
export const DEFAULT_WAIT_MS = 25_000;
/** The longest wait a server grants; a larger `wait_ms` is lowered to it: 60 s. */
export const MAX_WAIT_MS = 60_000;
/** The most items one answer holds. */
export const MAX_READ_LIMIT = 1000;

/** The parameters of one long-poll request, parsed. */
export interface SubscribeQuery {
  readonly topic: string;
  /** `undefined`: from now on. */
  readonly cursor: number | undefined;
  readonly waitMs: number | undefined;
  readonly limit: number | undefined;
}

const known = new Set(['topic', 'cursor', 'wait_ms', 'limit']);

/**
 * Parses the query of a subscribe request: `topic` (required), `cursor`, `wait_ms` and `limit`
 * (decimal non-negative integers; `limit` at least 1 and at most {@link MAX_READ_LIMIT}).
 *
 * @throws `BadRequestError` for a missing topic, an unknown parameter or a malformed number.
 */
export function parseSubscribeQuery(parameters: SignedParameters): SubscribeQuery {
  for (const name of Object.keys(parameters)) {
    if (!known.has(name)) throw new BadRequestError(`unknown query parameter ${name}`);
  }
  const topic = parameters['topic'];
  if (topic === undefined || topic === '') throw new BadRequestError('the query names no topic');
  const limit = integerParameter(parameters, 'limit');
  if (limit !== undefined && (limit < 1 || limit > MAX_READ_LIMIT)) {
    throw new BadRequestError(`limit must be between 1 and ${MAX_READ_LIMIT}`);
  }
  return {
    topic,
    cursor: integerParameter(parameters, 'cursor'),
    waitMs: integerParameter(parameters, 'wait_ms'),
    limit,
  };
}

/** The query of a subscribe request, as the client sends and signs it. */
export function formatSubscribeQuery(query: SubscribeQuery): Record<string, string> {
  return {
    topic: query.topic,
    ...(query.cursor === undefined ? {} : { cursor: String(query.cursor) }),
    ...(query.waitMs === undefined ? {} : { wait_ms: String(query.waitMs) }),
    ...(query.limit === undefined ? {} : { limit: String(query.limit) }),
  };
}

const cursorSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** The JSON body of a successful subscribe response (a `TopicRead`). */
export const topicReadSchema = z.strictObject({
  items: z.array(z.strictObject({ seq: cursorSchema, topic: z.string(), payload: z.unknown() })),
  cursor: cursorSchema,
  gap: z.boolean(),
});

/** Parses a decimal non-negative integer parameter; `undefined` when absent. */
export function integerParameter(parameters: SignedParameters, name: string): number | undefined {
  const text = parameters[name];
  if (text === undefined) return undefined;
  const value = /^(0|[1-9][0-9]{0,15})$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value)) {
    throw new BadRequestError(`${name} must be a non-negative integer, got ${JSON.stringify(text)}`);
  }
  return value;
}
