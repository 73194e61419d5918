import { RelayError, type RelayErrorCode } from '../../errors.js';
import type { PassthroughRelay } from './passthrough-relay.js';
import type { TenantResolver } from './tenant-resolver.js';

/** The largest webhook body an edge handler reads by default: 1 MiB. */
export const DEFAULT_WEBHOOK_MAX_BODY_BYTES = 1024 * 1024;

/** How long the provider's answer waits for the forward to be stored, by default: 2 s. */
export const DEFAULT_HANDOFF_TIMEOUT_MS = 2000;

/** Options every passthrough edge handler takes. */
export interface PassthroughHandlerOptions {
  /** Maps the event's route keys to its tenant; see {@link TenantResolver} and `tenantResolverFromRegistry`. */
  readonly tenantOf: TenantResolver;
  /** Where forwards and credential bindings go: a `RelayServer`, or anything with its two methods. */
  readonly server: PassthroughRelay;
  /** The `forward.profile` for a tenant (newer gateways route it to that Hermes profile). Default none. */
  readonly profileOf?: (tenant: string) => string | null | undefined | Promise<string | null | undefined>;
  /** The largest body read (413 above it); default {@link DEFAULT_WEBHOOK_MAX_BODY_BYTES}. */
  readonly maxBodyBytes?: number;
  /**
   * How long the answer waits for the bindings and the forward to be stored before it is sent
   * anyway (the provider's window is short: 3 s for Discord); default {@link DEFAULT_HANDOFF_TIMEOUT_MS}.
   * A store failing within it is answered 500; later, it goes to `onError`.
   */
  readonly handoffTimeoutMs?: number;
  /** Receives a failure to store a forward that was already answered. Default: nothing is reported. */
  readonly onError?: (error: unknown) => void;
  /** The clock, in milliseconds since the epoch, for signature timestamps. Default `Date.now`. */
  readonly now?: () => number;
}

/** {@link PassthroughHandlerOptions}, checked, with defaults filled in. */
export interface PassthroughHandlerSettings {
  readonly tenantOf: TenantResolver;
  readonly server: PassthroughRelay;
  readonly profileOf: (tenant: string) => Promise<string | null>;
  readonly maxBodyBytes: number;
  readonly handoffTimeoutMs: number;
  readonly onError: (error: unknown) => void;
  readonly now: () => number;
}

/** Checks the common options. @throws {RelayError} `edge_passthrough_invalid_argument` */
export function passthroughHandlerSettings(options: PassthroughHandlerOptions): PassthroughHandlerSettings {
  if (typeof options !== 'object' || options === null) {
    throw new RelayError('edge_passthrough_invalid_argument', 'options must be an object', {
      path: 'options',
    });
  }
  const { tenantOf, server, profileOf, onError, now } = options;
  if (typeof tenantOf !== 'function') {
    throw new RelayError('edge_passthrough_invalid_argument', 'tenantOf must be a function', {
      path: 'options.tenantOf',
    });
  }
  const relay = server as Partial<PassthroughRelay> | null | undefined;
  if (
    typeof relay !== 'object' ||
    relay === null ||
    typeof relay.forwardPassthrough !== 'function' ||
    typeof relay.bindCapability !== 'function'
  ) {
    throw new RelayError(
      'edge_passthrough_invalid_argument',
      'server must have forwardPassthrough and bindCapability methods (a RelayServer)',
      { path: 'options.server' },
    );
  }
  for (const [name, value] of [
    ['profileOf', profileOf],
    ['onError', onError],
    ['now', now],
  ] as const) {
    if (value !== undefined && typeof value !== 'function') {
      throw new RelayError('edge_passthrough_invalid_argument', `${name} must be a function`, {
        path: `options.${name}`,
      });
    }
  }
  return {
    tenantOf,
    server,
    profileOf: async (tenant) => checkedProfile(await profileOf?.(tenant)),
    maxBodyBytes: positiveInteger(options.maxBodyBytes, DEFAULT_WEBHOOK_MAX_BODY_BYTES, 'maxBodyBytes'),
    handoffTimeoutMs: positiveInteger(
      options.handoffTimeoutMs,
      DEFAULT_HANDOFF_TIMEOUT_MS,
      'handoffTimeoutMs',
    ),
    onError: (error) => {
      try {
        onError?.(error);
      } catch {
        // A failing reporter must not break the handler.
      }
    },
    now: now ?? Date.now,
  };
}

/** Checks a non-empty string option. @throws {RelayError} `edge_passthrough_invalid_argument` */
export function requiredString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new RelayError('edge_passthrough_invalid_argument', `${name} must be a non-empty string`, {
      path: `options.${name}`,
    });
  }
  return value;
}

/** Checks an optional string option. @throws {RelayError} `edge_passthrough_invalid_argument` */
export function optionalString(value: unknown, name: string): string | undefined {
  if (value !== undefined && typeof value !== 'string') {
    throw new RelayError('edge_passthrough_invalid_argument', `${name} must be a string`, {
      path: `options.${name}`,
    });
  }
  return value;
}

/**
 * The codes a webhook verifier refuses a request with: the request is not a webhook of the provider.
 * Its `invalid_argument` (an unusable option) is a fault of this side instead.
 */
const VERIFIER_REFUSALS: ReadonlySet<RelayErrorCode> = new Set<RelayErrorCode>([
  'malformed_request',
  'missing_signature',
  'malformed_signature',
  'bad_signature',
  'missing_timestamp',
  'malformed_timestamp',
  'stale_timestamp',
  'body_hash_mismatch',
  'malformed_body',
  'decrypt_failed',
  'corp_id_mismatch',
]);

/**
 * Runs a verifier, turning a refusal into `edge_webhook_unauthorized` (401 `unauthorized`, with a
 * message that names the provider and nothing of why; the verifier's error is the `cause`). An
 * unusable option (`invalid_argument`) is a fault of this side and is rethrown as it is.
 */
export function verified<T>(provider: string, verify: () => T): T {
  try {
    return verify();
  } catch (error) {
    if (error instanceof RelayError && VERIFIER_REFUSALS.has(error.code)) {
      throw new RelayError('edge_webhook_unauthorized', `the request is not a verified ${provider} webhook`, {
        path: 'request',
        cause: error,
      });
    }
    throw error;
  }
}

/**
 * `edge_unknown_tenant` (404 `unknown_tenant`): none of the event's route keys (guild id, DM channel
 * or user, called number, corp id) is provisioned. Nothing is forwarded and no credential is bound;
 * the provider reports a failed delivery (Discord shows "This interaction failed"), which is the
 * truth: no gateway will ever see the event.
 */
export function unknownTenant(platform: string): RelayError {
  return new RelayError('edge_unknown_tenant', `no tenant is provisioned for this ${platform} event`, {
    path: 'routeKey',
  });
}

/** Runs a sanitiser, answering a verified payload it cannot sanitise with 400 `bad_request`. */
export function sanitisedOr400<T>(sanitise: () => T): T {
  try {
    return sanitise();
  } catch (error) {
    if (!(error instanceof RelayError && error.code === 'sanitiser_malformed_payload')) throw error;
    throw new RelayError('edge_http_bad_request', 'the webhook payload cannot be forwarded', {
      path: error.path,
      cause: error,
    });
  }
}

function checkedProfile(profile: unknown): string | null {
  if (profile === undefined || profile === null || profile === '') return null;
  if (typeof profile !== 'string') {
    throw new RelayError('edge_passthrough_invalid_argument', 'profileOf must answer a string or null', {
      path: 'profileOf',
    });
  }
  return profile;
}

function positiveInteger(value: unknown, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new RelayError('edge_passthrough_invalid_argument', `${name} must be a positive integer`, {
      path: `options.${name}`,
    });
  }
  return value;
}
