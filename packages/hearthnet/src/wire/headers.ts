/** The path every capability call is POSTed to (contract §5.1). */
export const BUS_CALL_PATH = '/bus/v1/call';

/**
 * The `X-HearthNet-*` headers of contract §5.1 (requests) and §5.2–§5.4 (responses). Header names
 * are case-insensitive on the wire; these are the spellings we send.
 */
export const WIRE_HEADERS = {
  capability: 'X-HearthNet-Capability',
  capabilityVersion: 'X-HearthNet-Capability-Version',
  requestId: 'X-HearthNet-Request-Id',
  from: 'X-HearthNet-From',
  community: 'X-HearthNet-Community',
  timestamp: 'X-HearthNet-Timestamp',
  signature: 'X-HearthNet-Signature',
} as const;

/**
 * Sent with a client stream: the number of server frames the client lets be unacknowledged
 * (contract §5.3 `ack`). The server then waits for `ack` frames once that many are outstanding.
 * Not a contract header: an agentwire extension for client streams.
 */
export const ACK_WINDOW_HEADER = 'X-HearthNet-Ack-Window';

/** `Content-Type` of JSON bodies (contract §5.1, §5.2, §5.4). */
export const JSON_CONTENT_TYPE = 'application/json';
/** `Content-Type` of stream responses (contract §5.3). */
export const EVENT_STREAM_CONTENT_TYPE = 'text/event-stream';

/** Whether a `Content-Type` (parameters such as `; charset=utf-8` allowed) names `mediaType`. */
export function isMediaType(contentType: string | null, mediaType: string): boolean {
  if (contentType === null) return false;
  return contentType.split(';')[0]?.trim().toLowerCase() === mediaType;
}

/** Whether an `Accept` header lists `mediaType` (or `*\/*`), ignoring quality parameters. */
export function accepts(accept: string | null, mediaType: string): boolean {
  if (accept === null) return false;
  return accept.split(',').some((part) => {
    const type = part.split(';')[0]?.trim().toLowerCase();
    return type === mediaType || type === '*/*';
  });
}
