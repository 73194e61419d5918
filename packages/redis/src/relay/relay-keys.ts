/**
 * Writes a name (tenant, session key, kind) as one key segment: `encodeURIComponent` escapes `:`,
 * `%`, `{`, `}` and everything else outside `A-Za-z0-9-_.!~*'()`, so segments never contain the `:`
 * that separates them, two names never share a segment, and no name forms a Redis Cluster hash tag.
 */
export function keySegment(name: string): string {
  return encodeURIComponent(name);
}

/** The pub/sub channel of a tenant's bus messages. */
export function busChannel(keyPrefix: string, tenant: string): string {
  return `${keyPrefix}bus:${keySegment(tenant)}`;
}

/** The stream that holds a tenant's buffered frames. */
export function bufferStreamKey(keyPrefix: string, tenant: string): string {
  return `${keyPrefix}buffer:${keySegment(tenant)}`;
}

/** The hash that holds the capability bound under `(sessionKey, kind)`. */
export function vaultKey(keyPrefix: string, sessionKey: string, kind: string): string {
  return `${keyPrefix}vault:${keySegment(sessionKey)}:${keySegment(kind)}`;
}
