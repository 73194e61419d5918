/** Who called `/relay/enroll` or `/relay/provision`, as the identity provider vouches. */
export interface CallerIdentity {
  /** The user or service the access token was issued to. */
  readonly subject: string;
  /** The tenant the caller acts for; the gateway it enrolls or provisions belongs to it. */
  readonly tenant: string;
}

/**
 * Checks the `Authorization: Bearer` access token of an enroll or provision call (a Nous Portal or
 * OIDC access token): the caller's identity, or `null` when the token is not valid. A throw answers
 * 500 (the handler's `onError` sees it).
 */
export type CallerIdentityVerifier = (bearerToken: string) => Promise<CallerIdentity | null>;
