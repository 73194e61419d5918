/** Thrown for a topic name outside the catalogue of contract §8 (or a malformed `chat.message.<recipient>`). */
export class UnknownTopicError extends Error {
  override readonly name = 'UnknownTopicError';
  readonly code = 'unknown_topic';
  /** The refused topic name (as given, possibly not a string). */
  readonly topic: unknown;

  constructor(topic: unknown, message: string, options?: ErrorOptions) {
    super(message, options);
    this.topic = topic;
  }
}

/**
 * Thrown when a local-only topic (`emergency.mode.changed`, `capability.registered`,
 * `capability.deregistered`: contract §8 "never on the wire") is subscribed to or published over the
 * wire, or published into a hub as coming from a peer.
 */
export class LocalOnlyTopicError extends Error {
  override readonly name = 'LocalOnlyTopicError';
  readonly code = 'local_only_topic';
  /** The local-only topic. */
  readonly topic: string;

  constructor(topic: string, action: 'subscribe to' | 'publish', options?: ErrorOptions) {
    super(
      `${topic} is a local-only topic (contract §8): it cannot be ${action === 'publish' ? 'published' : 'subscribed to'} over the wire`,
      options,
    );
    this.topic = topic;
  }
}

/** Thrown when a payload does not match its topic's payload kind (contract §8 "Payload"). */
export class InvalidTopicPayloadError extends Error {
  override readonly name = 'InvalidTopicPayloadError';
  readonly code = 'invalid_topic_payload';
  readonly topic: string;
  /** The JSON path of the first offending field, e.g. `$.event_type`. */
  readonly path: string;

  constructor(topic: string, path: string, message: string, options?: ErrorOptions) {
    super(`${topic}: ${path}: ${message}`, options);
    this.topic = topic;
    this.path = path;
  }
}

/** Thrown for unusable options of the hub, the handler or the clients (a bad count, a missing identity). */
export class InvalidPubSubOptionsError extends Error {
  override readonly name = 'InvalidPubSubOptionsError';
  readonly code = 'invalid_pubsub_options';
}

/**
 * Thrown by a subscription when the node answers something that is not the pub-sub protocol: a body
 * off its shape, an item of another topic, a cursor that goes backwards, a payload that fails its
 * topic's validator or an event envelope whose signature does not verify.
 */
export class PubSubProtocolError extends Error {
  override readonly name = 'PubSubProtocolError';
  readonly code = 'pubsub_protocol';
}
