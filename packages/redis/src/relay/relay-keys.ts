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
  return `${keyPrefix}vault-bindings:${keySegment(sessionKey)}:${keySegment(kind)}`;
}

/** The hash that holds a one-time enrollment token, keyed by the token's digest, never the token. */
export function enrollmentTokenKey(keyPrefix: string, tokenDigest: string): string {
  return `${keyPrefix}enrollment-token:${tokenDigest}`;
}

/**
 * The hash of a platform's provision registrations (field: gateway id). It shares the Redis Cluster
 * hash tag `{<platform>}` with {@link provisionRoutesKey}, so one script can change both.
 */
export function provisionRegistrationsKey(keyPrefix: string, platform: string): string {
  return `${keyPrefix}provision:{${keySegment(platform)}}:registrations`;
}

/** The hash of a platform's route-key owners (field: route key), in the hash slot of its registrations. */
export function provisionRoutesKey(keyPrefix: string, platform: string): string {
  return `${keyPrefix}provision:{${keySegment(platform)}}:routes`;
}

/** The string that holds the relevance policy of `(gatewayId, platform)`. */
export function policyKey(keyPrefix: string, gatewayId: string, platform: string): string {
  return `${keyPrefix}policy:${keySegment(gatewayId)}:${keySegment(platform)}`;
}
