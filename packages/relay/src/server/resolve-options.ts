import { randomUUID } from 'node:crypto';
import type { StrictCapabilityDescriptor } from '../descriptor/index.js';
import { RelayError } from '../errors.js';
import { RELAY_SERVER_DEFAULTS, type RelayServerOptions } from './options.js';
import type { PlatformAdapter } from './platform-adapter.js';
import { platformDescriptor } from './platform-descriptor.js';

/** A platform the server can answer a hello for: its adapter and the descriptor it sends. */
export interface ServedPlatform {
  readonly name: string;
  readonly adapter: PlatformAdapter;
  readonly descriptor: StrictCapabilityDescriptor;
}

/** {@link RelayServerOptions} checked, with defaults filled and descriptors built. */
export interface ResolvedServerOptions {
  readonly listen: { readonly port: number; readonly host: string } | undefined;
  readonly path: string;
  readonly platforms: ReadonlyMap<string, ServedPlatform>;
  readonly fallbackPlatform: ServedPlatform | undefined;
  readonly instanceId: string;
  readonly maxPayload: number;
  readonly outboundTimeoutMs: number;
  readonly pingIntervalMs: number;
  readonly maxBufferedAmount: number;
  readonly dropBufferedAmount: number;
  readonly drainTimeoutMs: number;
  readonly maxIdentities: number;
  readonly maxRunningOutbound: number;
  readonly replayBatchSize: number;
  readonly tokenSkewSeconds: number;
  readonly now: () => number;
}

/**
 * Checks the options of `createRelayServer` and fills the defaults.
 *
 * @throws {RelayError} `relay_server_invalid_option`: naming the first unusable option.
 */
export function resolveServerOptions(options: RelayServerOptions): ResolvedServerOptions {
  if (options === null || typeof options !== 'object') {
    throw new RelayError('relay_server_invalid_option', 'options must be an object');
  }
  if (typeof options.authenticate !== 'function') {
    throw new RelayError('relay_server_invalid_option', 'authenticate must be a function', {
      path: 'authenticate',
    });
  }
  if (options.server !== undefined && (options.port !== undefined || options.host !== undefined)) {
    throw new RelayError('relay_server_invalid_option', 'pass either server or port/host, not both', {
      path: 'server',
    });
  }
  const path = options.path ?? RELAY_SERVER_DEFAULTS.path;
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw new RelayError('relay_server_invalid_option', 'path must be a string starting with "/"', {
      path: 'path',
    });
  }
  const platforms = resolvePlatforms(options.platforms);
  const fallbackName = options.fallbackPlatform;
  const fallbackPlatform = fallbackName === undefined ? undefined : platforms.get(fallbackName);
  if (fallbackName !== undefined && fallbackPlatform === undefined) {
    throw new RelayError('relay_server_invalid_option', 'fallbackPlatform must name a key of platforms', {
      path: 'fallbackPlatform',
    });
  }
  const instanceId = options.instanceId ?? randomUUID();
  if (typeof instanceId !== 'string' || instanceId === '') {
    throw new RelayError('relay_server_invalid_option', 'instanceId must be a non-empty string', {
      path: 'instanceId',
    });
  }
  const now = options.now ?? Date.now;
  if (typeof now !== 'function')
    throw new RelayError('relay_server_invalid_option', 'now must be a function', { path: 'now' });
  const maxBufferedAmount = integer(
    options.maxBufferedAmount,
    RELAY_SERVER_DEFAULTS.maxBufferedAmount,
    'maxBufferedAmount',
    0,
  );
  return {
    listen:
      options.server === undefined
        ? {
            port: integer(options.port, 0, 'port', 0, 65_535),
            host: nonEmptyString(options.host, RELAY_SERVER_DEFAULTS.host, 'host'),
          }
        : undefined,
    path,
    platforms,
    fallbackPlatform,
    instanceId,
    maxPayload: integer(options.maxPayload, RELAY_SERVER_DEFAULTS.maxPayload, 'maxPayload', 1),
    outboundTimeoutMs: integer(
      options.outboundTimeoutMs,
      RELAY_SERVER_DEFAULTS.outboundTimeoutMs,
      'outboundTimeoutMs',
      1,
    ),
    pingIntervalMs: integer(
      options.pingIntervalMs,
      RELAY_SERVER_DEFAULTS.pingIntervalMs,
      'pingIntervalMs',
      0,
    ),
    maxBufferedAmount,
    dropBufferedAmount: integer(
      options.dropBufferedAmount,
      Math.max(RELAY_SERVER_DEFAULTS.dropBufferedAmount, maxBufferedAmount),
      'dropBufferedAmount',
      maxBufferedAmount,
    ),
    drainTimeoutMs: integer(
      options.drainTimeoutMs,
      RELAY_SERVER_DEFAULTS.drainTimeoutMs,
      'drainTimeoutMs',
      1,
    ),
    maxIdentities: integer(options.maxIdentities, RELAY_SERVER_DEFAULTS.maxIdentities, 'maxIdentities', 1),
    maxRunningOutbound: integer(
      options.maxRunningOutbound,
      RELAY_SERVER_DEFAULTS.maxRunningOutbound,
      'maxRunningOutbound',
      1,
    ),
    replayBatchSize: integer(
      options.replayBatchSize,
      RELAY_SERVER_DEFAULTS.replayBatchSize,
      'replayBatchSize',
      1,
    ),
    tokenSkewSeconds: integer(
      options.tokenSkewSeconds,
      RELAY_SERVER_DEFAULTS.tokenSkewSeconds,
      'tokenSkewSeconds',
      0,
    ),
    now,
  };
}

function resolvePlatforms(
  platforms: RelayServerOptions['platforms'] | undefined,
): ReadonlyMap<string, ServedPlatform> {
  if (platforms === null || typeof platforms !== 'object' || Array.isArray(platforms)) {
    throw new RelayError(
      'relay_server_invalid_option',
      'platforms must be an object of PlatformAdapters by name',
      { path: 'platforms' },
    );
  }
  const served = new Map<string, ServedPlatform>();
  for (const [name, adapter] of Object.entries(platforms)) {
    served.set(name, { name, adapter, descriptor: platformDescriptor(name, adapter) });
  }
  if (served.size === 0)
    throw new RelayError('relay_server_invalid_option', 'platforms must name at least one platform', {
      path: 'platforms',
    });
  return served;
}

function integer(
  value: unknown,
  fallback: number,
  path: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new RelayError('relay_server_invalid_option', `${path} must be an integer from ${min} to ${max}`, {
      path,
    });
  }
  return value;
}

function nonEmptyString(value: unknown, fallback: string, path: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || value === '') {
    throw new RelayError('relay_server_invalid_option', `${path} must be a non-empty string`, { path });
  }
  return value;
}
