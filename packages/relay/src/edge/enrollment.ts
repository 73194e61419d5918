import * as z from 'zod/mini';

import { readBearerToken } from '../auth.js';
import { isKeyString } from '../buffer.js';
import { RelayError } from '../errors.js';
import { safeParseInEnglish } from '../internal.js';
import { authenticatorFor, type GatewaySecretRecord, type GatewaySecretStore } from '../secrets.js';
import { authenticateUpgrade } from '../server/platform-adapter.js';
import type {
  EnrollmentTokenRefusal,
  EnrollmentTokenStore,
  PolicyStore,
  ProvisionRegistration,
  ProvisionRegistry,
} from './enrollment-stores.js';
import {
  type EdgeHandler,
  edgeErrorResponse,
  edgeMethodNotAllowed,
  edgeUnauthorized,
  isEdgeHttpError,
  jsonResponse,
  readBodyWithLimit,
} from './http.js';

/** Options every enrollment endpoint takes. */
export interface EnrollmentHandlerBaseOptions {
  /**
   * Receives what made the endpoint answer 500 `internal_error`: a store or verifier that threw or
   * broke its contract. The endpoint itself never puts a secret or token in an error. Default: ignore.
   */
  readonly onError?: (error: unknown) => void;
  /** The largest request body accepted, in bytes; a larger one is answered 413. Default 64 KiB. */
  readonly maxBodyBytes?: number;
}

/** The default {@link EnrollmentHandlerBaseOptions.maxBodyBytes}. */
export const DEFAULT_ENROLLMENT_MAX_BODY_BYTES = 64 * 1024;

/** The checked base options. */
export interface ResolvedBaseOptions {
  readonly onError: (error: unknown) => void;
  readonly maxBodyBytes: number;
}

/**
 * Checks the options object, the base options and that every name in `required` is an object or a
 * function (a store or a callback).
 *
 * @throws {RelayError} `invalid_enrollment_argument`, path `options.<name>`.
 */
export function resolveBaseOptions(
  options: EnrollmentHandlerBaseOptions,
  required: Readonly<Record<string, 'object' | 'function'>>,
): ResolvedBaseOptions {
  if (typeof options !== 'object' || options === null) {
    throw new RelayError('invalid_enrollment_argument', 'options must be an object', { path: 'options' });
  }
  const fields = options as unknown as Readonly<Record<string, unknown>>;
  for (const [name, kind] of Object.entries(required)) {
    const value = fields[name];
    if (typeof value !== kind || value === null) {
      throw new RelayError('invalid_enrollment_argument', `options.${name} must be a ${kind}`, {
        path: `options.${name}`,
      });
    }
  }
  const { onError = () => undefined, maxBodyBytes = DEFAULT_ENROLLMENT_MAX_BODY_BYTES } = options;
  if (typeof onError !== 'function') {
    throw new RelayError('invalid_enrollment_argument', 'options.onError must be a function', {
      path: 'options.onError',
    });
  }
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes <= 0) {
    throw new RelayError('invalid_enrollment_argument', 'options.maxBodyBytes must be a positive integer', {
      path: 'options.maxBodyBytes',
    });
  }
  return { onError, maxBodyBytes };
}

/**
 * The answer to what a handler threw: an edge HTTP refusal with its status and `{error, message}`,
 * anything else a bare 500 `internal_error`, reported to `onError` first.
 */
export function answerFailure(error: unknown, onError: (error: unknown) => void): Response {
  if (!isEdgeHttpError(error)) onError(error);
  return edgeErrorResponse(error);
}

/**
 * `enrollment_invalid_body` (400): the body is not UTF-8 JSON (`invalid_json`) or not of the
 * endpoint's shape (`invalid_body`), the answer's `error`; the message names the refused field and
 * what is wrong with it, never its value.
 */
export function enrollmentBodyRefused(
  refusal: 'invalid_json' | 'invalid_body',
  message: string,
  path = 'body',
): RelayError {
  return new RelayError('enrollment_invalid_body', message, { path, details: { bodyRefusal: refusal } });
}

const TOKEN_REFUSALS: Readonly<Record<EnrollmentTokenRefusal, string>> = {
  unknown: 'the enrollment token is not valid',
  used: 'the enrollment token was already used',
  expired: 'the enrollment token has expired',
  tenant_mismatch: "the enrollment token was not issued to the caller's tenant",
};

/** `enrollment_token_rejected` (403): the one-time token is unknown, used, expired or another tenant's. */
export function enrollmentTokenRejected(refusal: EnrollmentTokenRefusal): RelayError {
  return new RelayError('enrollment_token_rejected', TOKEN_REFUSALS[refusal], {
    path: 'body.enrollmentToken',
    details: { tokenRefusal: refusal },
  });
}

/** `enrollment_gateway_conflict` (409): the gateway id belongs to another tenant. */
export function gatewayIdConflict(): RelayError {
  return new RelayError('enrollment_gateway_conflict', 'the gateway id belongs to another tenant', {
    path: 'body.gatewayId',
  });
}

/**
 * `enrollment_gateway_revoked` (403): `/relay/provision` for a revoked gateway; only a new enrollment
 * lifts a revocation.
 */
export function provisionRevokedGateway(): RelayError {
  return new RelayError('enrollment_gateway_revoked', 'the gateway was revoked; enroll it again', {
    path: 'body.gatewayId',
  });
}

/**
 * @throws {RelayError} `edge_http_method_not_allowed`: the request is not a POST (405 with `Allow: POST`).
 */
export function assertPost(request: Request): void {
  if (request.method !== 'POST') throw edgeMethodNotAllowed(request.method, ['POST']);
}

/** The bearer token of the request, or `undefined` when there is none or the header is not a bearer. */
export function requestBearerToken(request: Request): string | undefined {
  try {
    return readBearerToken(request.headers.get('authorization'));
  } catch (error) {
    if (error instanceof RelayError && error.code === 'relay_token_malformed') return undefined;
    throw error;
  }
}

/**
 * Reads the body as UTF-8 JSON of at most `maxBytes` bytes and checks it against `schema`.
 *
 * @throws {RelayError} `edge_http_payload_too_large`: the body is larger than `maxBytes` (413).
 * @throws {RelayError} `enrollment_invalid_body`: not UTF-8 JSON, or not of the schema's shape (400).
 */
export async function readJsonBody<T>(
  request: Request,
  schema: z.ZodMiniType<T>,
  maxBytes: number,
): Promise<T> {
  const bytes = await readBodyWithLimit(request, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw enrollmentBodyRefused('invalid_json', 'the body is not UTF-8 JSON');
  }
  const parsed = safeParseInEnglish(schema, value);
  if (parsed.success) return parsed.data;
  // zod's messages say what is wrong, never what was sent.
  const issue = parsed.error.issues[0];
  const path = issue === undefined || issue.path.length === 0 ? 'body' : `body.${issue.path.join('.')}`;
  throw enrollmentBodyRefused('invalid_body', `${path}: ${issue?.message ?? 'is not valid'}`, path);
}

/**
 * The identity behind the request's bearer token.
 *
 * @throws {RelayError} `edge_http_unauthorized`: no bearer token, or the verifier refused it (401
 *   `unauthorized`).
 * @throws {RelayError} `enrollment_callback_failed`: the verifier answered something other than an identity
 *   or `null`.
 */
export async function identifyCaller(
  request: Request,
  verifyIdentity: CallerIdentityVerifier,
): Promise<CallerIdentity> {
  const token = requestBearerToken(request);
  if (token === undefined) throw edgeUnauthorized('unauthorized', 'no identity bearer token');
  const identity: unknown = await verifyIdentity(token);
  if (identity === null) {
    throw edgeUnauthorized('unauthorized', 'the identity verifier refused the token');
  }
  const { subject, tenant } = (identity ?? {}) as Partial<CallerIdentity>;
  if (!isKeyString(subject) || !isKeyString(tenant)) {
    throw new RelayError(
      'enrollment_callback_failed',
      'verifyIdentity must answer null or {subject, tenant} with non-empty strings',
      { path: 'verifyIdentity' },
    );
  }
  return { subject, tenant };
}

/** The longest `displayName` the gateway sends, in code points (Python `len`). */
export const MAX_DISPLAY_NAME_LENGTH = 64;

const name = z.string().check(z.refine(isKeyString, 'must be a non-empty, well-formed string'));

/** `POST /relay/enroll` body, as `hermes gateway enroll` sends it. */
export const enrollRequestSchema = z.object({
  enrollmentToken: name,
  gatewayId: name,
});

/** `POST /relay/provision` body: optional keys appear only when the gateway has them set. */
export const provisionRequestSchema = z.object({
  gatewayId: name,
  platform: name,
  botId: z.string(),
  gatewayEndpoint: z.string(),
  routeKeys: z.array(name),
  instanceId: z.optional(name),
  wakeUrl: z.optional(z.url({ protocol: /^https?$/ })),
  displayName: z.optional(
    z
      .string()
      .check(
        z.refine(
          (value) => [...value].length <= MAX_DISPLAY_NAME_LENGTH,
          `must be at most ${MAX_DISPLAY_NAME_LENGTH} characters`,
        ),
      ),
  ),
});

/**
 * `POST /relay/policy` body. Current gateways send all four keys; earlier ones sent only the keys
 * that differ from the default, so a missing key reads as its default (`false`, `[]`).
 */
export const policyRequestSchema = z.object({
  platform: name,
  requireAddress: z._default(z.boolean(), false),
  freeResponseScopes: z._default(z.array(name), []),
  allowOtherBots: z._default(z.boolean(), false),
});

/** The body of `POST /provision`, decoded (defaults filled). */
export type ProvisionRequest = z.infer<typeof provisionRequestSchema>;

/** What enroll and provision answer about the gateway's credentials. */
export interface GatewayCredentialsBody {
  readonly secret: string;
  readonly deliveryKey: string;
  readonly tenant: string;
  readonly gatewayId: string;
}

/**
 * The credentials part of an enroll or provision answer.
 *
 * @throws {RelayError} `enrollment_callback_failed`: the record is revoked or holds no secret (`source` broke
 *   its contract).
 */
export function credentialsBody(record: GatewaySecretRecord, source: string): GatewayCredentialsBody {
  const [secret] = record.secrets;
  if (secret === undefined || record.revoked) {
    throw new RelayError('enrollment_callback_failed', `${source} answered a record without a live secret`, {
      path: 'secrets',
    });
  }
  return { secret, deliveryKey: record.deliveryKey, tenant: record.tenant, gatewayId: record.gatewayId };
}

/** Options of {@link createEnrollHandler}. */
export interface EnrollHandlerOptions extends EnrollmentHandlerBaseOptions {
  /** Checks the caller's identity bearer token. */
  readonly verifyIdentity: CallerIdentityVerifier;
  /** The one-time enrollment tokens operators hand out. */
  readonly enrollmentTokens: EnrollmentTokenStore;
  /** Where the gateway's credentials are issued. */
  readonly secrets: GatewaySecretStore;
}

/**
 * The `POST /relay/enroll` endpoint (`hermes gateway enroll --token <t>`): checks the caller's
 * identity bearer token (401 `unauthorized` when absent or refused), reads
 * `{enrollmentToken, gatewayId}` (400 `invalid_json` / `invalid_body`, 413), consumes the one-time
 * token for the caller's tenant (403 `enrollment_token_rejected` when unknown, used, expired or
 * issued to another tenant), then issues the gateway fresh credentials in the secret store —
 * creating it, or replacing the credentials of the tenant's existing gateway of that id and lifting
 * its revocation (409 `gateway_conflict` when another tenant holds the id; the token is spent) — and
 * answers `200 {secret, deliveryKey, tenant, gatewayId}`. Other methods get 405; a throwing verifier
 * or store gets 500 `internal_error` and is reported to `onError`.
 *
 * @example
 * ```ts
 * const enroll = createEnrollHandler({
 *   verifyIdentity: async (token) => portal.introspect(token), // → { subject, tenant } | null
 *   enrollmentTokens: new InMemoryEnrollmentTokenStore(),
 *   secrets,
 * });
 * const response = await enroll(request); // a Fetch API Request
 * ```
 * @throws {RelayError} `invalid_enrollment_argument`: a missing store or verifier, or unusable base options.
 */
export function createEnrollHandler(options: EnrollHandlerOptions): EdgeHandler {
  const { onError, maxBodyBytes } = resolveBaseOptions(options, {
    verifyIdentity: 'function',
    enrollmentTokens: 'object',
    secrets: 'object',
  });
  const { verifyIdentity, enrollmentTokens, secrets } = options;
  return async (request) => {
    try {
      assertPost(request);
      const identity = await identifyCaller(request, verifyIdentity);
      const { enrollmentToken, gatewayId } = await readJsonBody(request, enrollRequestSchema, maxBodyBytes);
      const redemption = await enrollmentTokens.redeem(enrollmentToken, identity.tenant);
      if (!redemption.redeemed) throw enrollmentTokenRejected(redemption.reason);
      const record = await secrets.issue(gatewayId, identity.tenant).catch((error: unknown) => {
        throw error instanceof RelayError && error.code === 'gateway_tenant_mismatch'
          ? gatewayIdConflict()
          : error;
      });
      return jsonResponse(200, credentialsBody(record, 'secrets.issue'));
    } catch (error) {
      return answerFailure(error, onError);
    }
  };
}

/** Options of {@link createPolicyHandler}. */
export interface PolicyHandlerOptions extends EnrollmentHandlerBaseOptions {
  /** The gateways' secrets, which verify the channel token. */
  readonly secrets: GatewaySecretStore;
  /** Where the policies are stored. */
  readonly policies: PolicyStore;
  /** The clock tokens are judged by, in milliseconds. Default `Date.now`. */
  readonly now?: () => number;
  /** Seconds a token stays acceptable past its expiry. Default 0, as on the WebSocket upgrade. */
  readonly tokenSkewSeconds?: number;
}

/**
 * The `POST /relay/policy` endpoint (the gateway declares its relevance policy at boot, one call per
 * fronted platform): the bearer is the gateway's channel token, verified exactly as a `/relay`
 * upgrade (401 `expired` for a validly signed token past its expiry; 401 `unauthorized` for no,
 * malformed or forged tokens and unknown or revoked gateways); the body
 * `{platform, requireAddress, freeResponseScopes[], allowOtherBots}` (400; a missing key reads as
 * its default, as earlier gateways sent only non-default keys) replaces the `(gatewayId, platform)`
 * policy, stored with the gateway's tenant; answers `200 {}`.
 *
 * @example
 * ```ts
 * const policy = createPolicyHandler({ secrets, policies: new InMemoryPolicyStore() });
 * ```
 * @throws {RelayError} `invalid_enrollment_argument`: a missing store, or an unusable clock, skew or base
 *   option.
 */
export function createPolicyHandler(options: PolicyHandlerOptions): EdgeHandler {
  const { onError, maxBodyBytes } = resolveBaseOptions(options, { secrets: 'object', policies: 'object' });
  const { policies, now = Date.now, tokenSkewSeconds = 0 } = options;
  if (typeof now !== 'function') {
    throw new RelayError('invalid_enrollment_argument', 'options.now must be a function', {
      path: 'options.now',
    });
  }
  if (!Number.isSafeInteger(tokenSkewSeconds) || tokenSkewSeconds < 0) {
    throw new RelayError(
      'invalid_enrollment_argument',
      'options.tokenSkewSeconds must be a non-negative integer',
      { path: 'options.tokenSkewSeconds' },
    );
  }
  const authenticate = authenticatorFor(options.secrets);
  return async (request) => {
    try {
      assertPost(request);
      const auth = await authenticateUpgrade(request.headers.get('authorization') ?? undefined, {
        authenticate,
        nowSeconds: Math.floor(now() / 1000),
        skewSeconds: tokenSkewSeconds,
      });
      if (!auth.ok) throw edgeUnauthorized(auth.reason, auth.detail);
      const policy = await readJsonBody(request, policyRequestSchema, maxBodyBytes);
      await policies.put({ ...policy, tenant: auth.tenant, gatewayId: auth.gatewayId });
      return jsonResponse(200, {});
    } catch (error) {
      return answerFailure(error, onError);
    }
  };
}

/** Options of {@link createProvisionHandler}. */
export interface ProvisionHandlerOptions extends EnrollmentHandlerBaseOptions {
  /** Checks the caller's identity bearer token. */
  readonly verifyIdentity: CallerIdentityVerifier;
  /** Where the gateway's credentials are created or read. */
  readonly secrets: GatewaySecretStore;
  /** Where each fronted platform's registration is stored. */
  readonly registry: ProvisionRegistry;
}

/**
 * The `POST /relay/provision` endpoint (a managed gateway's self-provisioning at boot, one call per
 * fronted platform): checks the caller's identity bearer token (401), reads
 * `{gatewayId, platform, botId, gatewayEndpoint, routeKeys[], instanceId?, wakeUrl?, displayName?}`
 * (400; `displayName` at most 64 characters, `wakeUrl` an http(s) URL), then finds the gateway in
 * the secret store or creates it (409 `gateway_conflict` when another tenant holds the id, 403
 * `gateway_revoked` when it was revoked: provisioning never lifts a revocation), registers the
 * platform and answers `200 {secret, deliveryKey, tenant, gatewayId, routeKeys}` with the route keys
 * the registry granted. A live gateway keeps its secret, so every platform's call (and every boot)
 * answers the same credentials.
 *
 * @example
 * ```ts
 * const provision = createProvisionHandler({
 *   verifyIdentity,
 *   secrets,
 *   registry: new InMemoryProvisionRegistry(),
 * });
 * ```
 * @throws {RelayError} `invalid_enrollment_argument`: a missing store or verifier, or unusable base options.
 */
export function createProvisionHandler(options: ProvisionHandlerOptions): EdgeHandler {
  const { onError, maxBodyBytes } = resolveBaseOptions(options, {
    verifyIdentity: 'function',
    secrets: 'object',
    registry: 'object',
  });
  const { verifyIdentity, secrets, registry } = options;
  return async (request) => {
    try {
      assertPost(request);
      const identity = await identifyCaller(request, verifyIdentity);
      const body = await readJsonBody(request, provisionRequestSchema, maxBodyBytes);
      const record = await tenantGateway(secrets, body.gatewayId, identity.tenant);
      const credentials = credentialsBody(record, 'the secret store');
      const routeKeys = await registry.register(registration(identity, body));
      return jsonResponse(200, { ...credentials, routeKeys });
    } catch (error) {
      return answerFailure(error, onError);
    }
  };
}

/**
 * The tenant's live gateway, created when absent.
 *
 * @throws {RelayError} `enrollment_gateway_conflict`: another tenant holds the id.
 * @throws {RelayError} `enrollment_gateway_revoked`: the gateway is revoked.
 */
async function tenantGateway(
  secrets: GatewaySecretStore,
  gatewayId: string,
  tenant: string,
): Promise<GatewaySecretRecord> {
  let record = await secrets.get(gatewayId);
  if (record === null) {
    try {
      record = await secrets.create(gatewayId, tenant);
    } catch (error) {
      // Another call (this gateway's next platform) created it first: use what it created.
      if (!(error instanceof RelayError && error.code === 'gateway_exists')) throw error;
      record = await secrets.get(gatewayId);
    }
  }
  if (record === null || record.tenant !== tenant) throw gatewayIdConflict();
  if (record.revoked) throw provisionRevokedGateway();
  return record;
}

function registration(identity: CallerIdentity, body: ProvisionRequest): ProvisionRegistration {
  const { instanceId, wakeUrl, displayName } = body;
  return {
    tenant: identity.tenant,
    subject: identity.subject,
    gatewayId: body.gatewayId,
    platform: body.platform,
    botId: body.botId,
    gatewayEndpoint: body.gatewayEndpoint,
    routeKeys: body.routeKeys,
    ...(instanceId !== undefined && { instanceId }),
    ...(wakeUrl !== undefined && { wakeUrl }),
    ...(displayName !== undefined && { displayName }),
  };
}

/** Options of {@link enrollmentRoutes}: those of the three endpoints together. */
export interface EnrollmentRoutesOptions
  extends EnrollHandlerOptions,
    ProvisionHandlerOptions,
    PolicyHandlerOptions {}

/**
 * The three gateway → connector HTTP endpoints as routes for `createEdgeRouter`:
 *
 * - `POST /relay/enroll` (`hermes gateway enroll --token <t>`): the caller's identity bearer, then
 *   `{enrollmentToken, gatewayId}`; spends the one-time token for the caller's tenant and answers the
 *   gateway's fresh credentials `200 {secret, deliveryKey, tenant, gatewayId}` (401, 403
 *   `enrollment_token_rejected`, 409 `gateway_conflict`).
 * - `POST /relay/provision` (a managed gateway at boot, once per fronted platform): the identity
 *   bearer, then the registration; creates or finds the gateway, registers the platform's route keys
 *   and answers the credentials plus the `routeKeys` granted (403 `gateway_revoked`: provisioning
 *   never lifts a revocation).
 * - `POST /relay/policy`: the gateway's channel token, then its relevance policy for one platform,
 *   stored in `policies` (401 `expired` / `unauthorized`).
 *
 * Refusals are JSON `{ error, message }`; a throwing verifier or store is answered 500
 * `internal_error` and reported to `onError`. The guide (docs/relay-edge.md) walks through
 * enroll → provision → connect → rotate → revoke.
 *
 * @example
 * ```ts
 * const router = createEdgeRouter({
 *   ...enrollmentRoutes({ verifyIdentity, enrollmentTokens, secrets, registry, policies }),
 *   '/relay/media': media,
 * });
 * ```
 * @throws {RelayError} `invalid_enrollment_argument`: a missing store or verifier, or an unusable option.
 */
export function enrollmentRoutes(options: EnrollmentRoutesOptions): Readonly<Record<string, EdgeHandler>> {
  return {
    'POST /relay/enroll': createEnrollHandler(options),
    'POST /relay/provision': createProvisionHandler(options),
    'POST /relay/policy': createPolicyHandler(options),
  };
}

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
