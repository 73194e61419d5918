// Shared checks of the `hearthnet.node` cases: the case factory, and the HTTP answer checks every
// group of cases uses (status, §5.4 error bodies, JSON bodies).

import type { KeyPair } from '@agentwire/hearthnet';
import {
  type HearthNetErrorCode,
  httpStatusForErrorCode,
  isHearthNetErrorCode,
} from '@agentwire/hearthnet/capabilities';
import { isMediaType, JSON_CONTENT_TYPE, WIRE_HEADERS } from '@agentwire/hearthnet/wire';
import { isJsonObject } from '@agentwire/internal';
import { assertEqual, assertTrue, fail } from '../../assert.js';
import type { ConformanceCase, ConformanceLevel } from '../../suite.js';
import { HEARTHNET_SUITE_VERSION } from './suite-version.js';

/** The name of the suite, the prefix of every case id. */
export const NODE_SUITE_NAME = 'hearthnet.node';

type Ctx = HearthNetNodeSuiteContext;

export function nodeCase(
  id: string,
  title: string,
  section: string,
  level: ConformanceLevel,
  requires: string | readonly string[] | undefined,
  run: (ctx: Ctx) => Promise<void>,
  since: string = HEARTHNET_SUITE_VERSION,
): ConformanceCase<Ctx> {
  return {
    id: `${NODE_SUITE_NAME}.${id}`,
    title,
    section,
    level,
    since,
    ...(requires === undefined ? {} : { requires }),
    // Every request of the case is aborted with it at its timeout: nothing stays open, the process exits.
    run: (ctx, { signal }) => run({ ...ctx, fetch: fetchWithin(ctx.fetch, signal) }),
  };
}

/** `fetch` whose requests (and the bodies being read) are aborted when `signal` is, as well as by their own. */
export function fetchWithin(fetchFunction: typeof fetch, signal: AbortSignal): typeof fetch {
  return (input, init) =>
    fetchFunction(input, {
      ...init,
      signal: init?.signal == null ? signal : AbortSignal.any([init.signal, signal]),
    });
}

export async function expectStatus(response: Response, status: number, what: string): Promise<void> {
  if (response.status === status) return;
  fail(
    `${what} answered HTTP ${response.status} ${clip(await response.text().catch(() => ''))}, not ${status}`,
  );
}

/** Checks a §5.4 error response whose code is one of `codes` and returns its body. */
export async function expectError(
  response: Response,
  codes: readonly HearthNetErrorCode[],
  what: string,
  sent?: { readonly requestId: string },
): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (response.ok) fail(`${what} answered HTTP ${response.status} ${clip(text)}, not ${codes.join(' or ')}`);
  assertTrue(
    isMediaType(response.headers.get('Content-Type'), JSON_CONTENT_TYPE),
    `${what}: the error response has Content-Type ${String(response.headers.get('Content-Type'))}`,
  );
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    fail(`${what}: the error body is not JSON: ${clip(text)}`, error);
  }
  const checked = checkErrorBody(body, codes, what);
  const code = checked['error'] as HearthNetErrorCode;
  assertEqual(response.status, httpStatusForErrorCode(code), `${what}: the HTTP status of ${code} (§5.5)`);
  if (sent !== undefined) {
    assertEqual(
      response.headers.get(WIRE_HEADERS.requestId),
      sent.requestId,
      `${what}: ${WIRE_HEADERS.requestId}`,
    );
  }
  return checked;
}

/** Checks the §5.4 body shape and that its code is one of `codes`. */
export function checkErrorBody(
  body: unknown,
  codes: readonly HearthNetErrorCode[],
  what: string,
): Record<string, unknown> {
  if (!isJsonObject(body)) fail(`${what}: the error body is not an object: ${clip(body)}`);
  const code = body['error'];
  assertTrue(isHearthNetErrorCode(code), `${what}: "error" is not a §9 code: ${clip(body)}`);
  assertTrue(codes.includes(code), `${what} answered ${code}, not ${codes.join(' or ')}: ${clip(body)}`);
  const optional = (key: string, ok: (value: unknown) => boolean, shape: string) => {
    if (key in body) assertTrue(ok(body[key]), `${what}: "${key}" is not ${shape}: ${clip(body)}`);
  };
  const strings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string');
  optional('message', (value) => typeof value === 'string', 'a string');
  optional('retry_after_ms', (value) => Number.isSafeInteger(value) && (value as number) >= 0, 'a count');
  optional('alt_capabilities', strings, 'an array of strings');
  optional('alt_nodes', strings, 'an array of strings');
  optional('schema_hash_expected', (value) => typeof value === 'string', 'a string');
  return body;
}

export async function readJsonBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch (error) {
    return fail(`the body is not JSON: ${clip(text)}`, error);
  }
}

export function clip(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** One call the suite makes: a capability, the version asked for, and a request the node accepts. */
export interface NodeSuiteCall {
  readonly capability: string;
  /** The version asked for (`major.minor`). Default `1.0`. */
  readonly version?: string;
  /** Default `{}`. */
  readonly params?: Readonly<Record<string, unknown>>;
  readonly input: Readonly<Record<string, unknown>>;
}

/** A streaming call that keeps streaming until the caller goes away (e.g. `llm.chat` with a large `max_tokens`). */
export interface NodeSuiteLongStream extends NodeSuiteCall {
  /** The `max_concurrent` the node declares for the capability; enables the `capacity` case. */
  readonly maxConcurrent?: number;
}

/** What the suite exercises; each call left out skips the cases that need it. */
export interface NodeSuiteCapabilities {
  /** A JSON call the node answers 200 (capability `call`): the signature, error and replay cases use it. */
  readonly call?: NodeSuiteCall;
  /** The `input` that makes `call` a `bad_request` (its schema refuses it). Default: a string. */
  readonly invalidInput?: unknown;
  /** A streaming call that ends by itself (capability `stream`). */
  readonly stream?: NodeSuiteCall;
  /** A streaming call that runs until cancelled (capability `long-stream`; `capacity` with `maxConcurrent`). */
  readonly longStream?: NodeSuiteLongStream;
  /** The node serves the long-poll `GET /pubsub/v1/subscribe` of contract §8 (capability `subscribe`). */
  readonly subscribe?: NodeSuiteSubscribe;
  /** The node serves `file.read` (capability `blob-read`) and, for a trusted caller, `file.put` (`blob-put`). */
  readonly blobs?: NodeSuiteBlobs;
  /** The node serves its signed manifest at `GET /manifest` (capability `manifest`). */
  readonly manifest?: NodeSuiteManifest;
  /** The node serves the gossip endpoints of contract §7.6 (capability `sync`; `sync-push` with `push`). */
  readonly sync?: NodeSuiteSync;
  /**
   * The key pair of a node the community has revoked (capability `revoked`): `call` signed by it must
   * answer 403 `revoked` (§5.5, §9).
   */
  readonly revoked?: KeyPair;
}

/** What the `manifest` cases allow for. */
export interface NodeSuiteManifest {
  /**
   * How far behind the suite's clock the node's may be: a manifest is still accepted this many
   * milliseconds after its `expires_at`. Default 5000.
   */
  readonly clockSkewMs?: number;
}

/** What the `sync` cases may do. */
export interface NodeSuiteSync {
  /**
   * Push a `market.post.created` of the caller (a member) through `POST /sync/v1/events` and check it
   * is stored once (capability `sync-push`). Default `false`: only a forged event is pushed, which the
   * node must refuse.
   */
  readonly push?: boolean;
  /**
   * Also push a `community.member.invited` of a fresh node by the caller and that node's
   * `community.member.joined`, below the community's head, and call as that node (capability
   * `sync-invite`; the caller must be allowed to invite). Default `false`: it adds a member to the
   * community.
   */
  readonly invite?: boolean;
}

/** The pub-sub endpoint the `subscribe` cases poll. */
export interface NodeSuiteSubscribe {
  /** A wire topic the caller may read. Default `marketplace.post.created`. */
  readonly topic?: string;
}

/** What the blob transfer cases may do. */
export interface NodeSuiteBlobs {
  /**
   * The node trusts the caller (contract §4.10): `file.put` a small blob of random bytes, read it back
   * with `file.read` and put it again (capability `blob-put`). Default `false`: only `file.read`.
   */
  readonly put?: boolean;
}

/** What every case of `hearthnetNodeSuite` receives: the options, checked and resolved. */
export interface HearthNetNodeSuiteContext {
  /** `<baseUrl>/bus/v1/call`. */
  readonly url: URL;
  /** `<baseUrl>/pubsub/v1/subscribe`. */
  readonly subscribeUrl: URL;
  readonly identity: KeyPair;
  readonly community: string;
  readonly expectNodeId: string | undefined;
  readonly capabilities: NodeSuiteCapabilities;
  readonly fetch: typeof fetch;
  readonly patienceMs: number;
  /** `capabilities.manifest.clockSkewMs`, resolved. */
  readonly manifestClockSkewMs: number;
}
