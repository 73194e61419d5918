import {
  checkEdgeName,
  checkProvisionRegistration,
  checkRelevancePolicy,
  type GatewayRelevancePolicy,
  type ProvisionRegistration,
} from './enrollment-stores.js';
import {
  checkPutArguments,
  isMediaId,
  type MediaBody,
  type MediaPutOptions,
  newMediaId,
} from './media-store.js';

/**
 * What {@link edgeStoreKit} holds: the argument checks and shared rules of the edge's store
 * interfaces, grouped by store. Each check throws the same `RelayError` code and `path` as the
 * in-memory store does for the same argument, and answers a fresh value with exactly the interface's
 * keys.
 */
export interface EdgeStoreKit {
  /**
   * `EnrollmentTokenStore`, `ProvisionRegistry`, `PolicyStore`: checks a tenant, gateway id,
   * platform, route key or token — a non-empty string of well-formed Unicode.
   *
   * @throws {RelayError} `invalid_enrollment_argument`, with `path`.
   * @example
   * edgeStoreKit.checkEdgeName('discord', 'platform'); // 'discord'
   * edgeStoreKit.checkEdgeName('', 'platform'); // throws: platform must be a non-empty string
   */
  checkEdgeName(value: unknown, path: string): string;
  /**
   * `ProvisionRegistry`: checks a registration (names non-empty, texts well-formed, optional fields
   * only when given) and answers a copy, `routeKeys` copied too. `path` defaults to `'registration'`.
   *
   * @throws {RelayError} `invalid_enrollment_argument`, `path` naming the field
   *   (`registration.tenant`, `registration.routeKeys[2]`, …).
   */
  checkProvisionRegistration(value: unknown, path?: string): ProvisionRegistration;
  /**
   * `PolicyStore`: checks a gateway's relevance policy (names non-empty, flags booleans) and answers a
   * copy, `freeResponseScopes` copied too. `path` defaults to `'policy'`.
   *
   * @throws {RelayError} `invalid_enrollment_argument`, `path` naming the field.
   */
  checkRelevancePolicy(value: unknown, path?: string): GatewayRelevancePolicy;
  /**
   * `MediaStore`: checks the arguments of `put` — `body` a `Uint8Array` or a `ReadableStream`,
   * `options.tenant` and `options.contentType` non-empty strings, `options.filename` a string when
   * given.
   *
   * @throws {RelayError} `media_invalid_argument`, path `body`, `options` or `options.<field>`.
   */
  checkMediaPut(body: MediaBody, options: MediaPutOptions): void;
  /** `MediaStore`: a new media id, 128 random bits as 32 lowercase hex digits (safe in a URL path or a file name). */
  newMediaId(): string;
  /**
   * `MediaStore`: whether `value` has the form of a {@link EdgeStoreKit.newMediaId} id; a store answers
   * any other id as unknown (`null`, `false`), never by throwing.
   */
  isMediaId(value: unknown): value is string;
}

/**
 * The argument checks and shared rules for implementing an edge store (`EnrollmentTokenStore`,
 * `ProvisionRegistry`, `PolicyStore`, `MediaStore`) on another backend, as `@agentwire/redis` does:
 * call the checks before touching the backend, so that every implementation refuses the same
 * arguments with the same `RelayError` code and `path` as the in-memory stores, and the store suites
 * of `@agentwire/conformance` (their `arguments.refused` cases) pass.
 *
 * @example
 * ```ts
 * import { edgeStoreKit, type GatewayRelevancePolicy, type PolicyStore } from '@agentwire/relay/edge';
 *
 * class MyPolicyStore implements PolicyStore {
 *   async put(policy: GatewayRelevancePolicy) {
 *     const checked = edgeStoreKit.checkRelevancePolicy(policy);
 *     // … store `checked` under (checked.gatewayId, checked.platform)
 *   }
 *   async get(gatewayId: string, platform: string) {
 *     const key = [edgeStoreKit.checkEdgeName(gatewayId, 'gatewayId'), edgeStoreKit.checkEdgeName(platform, 'platform')];
 *     // … read it back, through checkRelevancePolicy again when other writers share the backend
 *   }
 * }
 * ```
 */
export const edgeStoreKit: Readonly<EdgeStoreKit> = /* @__PURE__ */ Object.freeze({
  checkEdgeName,
  checkProvisionRegistration,
  checkRelevancePolicy,
  checkMediaPut: checkPutArguments,
  newMediaId,
  isMediaId,
});
