// `hearthnet.reference-node`: a node that speaks the Python reference's dialect, tested for what it is
// (the `hearthnet` CLI target with `--dialect reference`). Its calls go out in the reference's forms and
// must be served; each place where a reference node departs from the contract is a case of its own — a
// finding — that fails when the node departs, whatever the other cases found.
import { type KeyPair, signPayload } from '@agentwire/hearthnet';
import {
  catalogueDescriptor,
  HearthNetError,
  NotFoundError,
  schemaHash,
} from '@agentwire/hearthnet/capabilities';
import { referenceEvents, referenceWire } from '@agentwire/hearthnet/compat';
import { BUS_CALL_PATH, createHearthNetClient, WIRE_HEADERS } from '@agentwire/hearthnet/wire';
import { isJsonObject } from '@agentwire/internal';
import { assertTrue, fail } from '../../assert.js';
import { ConformanceError } from '../../errors.js';
import type { ConformanceCase, ConformanceLevel, ConformanceSuite } from '../../suite.js';
import { clip, fetchWithin, type NodeSuiteCall, readJsonBody } from './node-suite-checks.js';

/** The name of the suite, the prefix of every case id. */
export const REFERENCE_NODE_SUITE_NAME = 'hearthnet.reference-node';
const REFERENCE_NODE_SUITE_VERSION = '1.0.0';
const ABSENT_CAPABILITY = 'experimental.conformance_absent';

/** Options of {@link hearthnetReferenceNodeSuite}. */
export interface HearthNetReferenceNodeSuiteOptions {
  /** The node's base URL. */
  readonly baseUrl: string | URL;
  /** The caller's key pair (a reference node checks no caller; it signs the calls anyway). */
  readonly identity: KeyPair;
  /** The community id the caller names. */
  readonly community: string;
  /** The call the suite makes, in the reference's request form (`params` may be `{}`). */
  readonly call: NodeSuiteCall;
  /** The `fetch` to use. Default `globalThis.fetch`. */
  readonly fetch?: typeof fetch;
}

interface Ctx {
  readonly base: URL;
  readonly identity: KeyPair;
  readonly community: string;
  readonly call: NodeSuiteCall;
  readonly fetch: typeof fetch;
}

/**
 * A black-box suite for a node in the Python reference's dialect: a call of `call` in the reference's
 * form answered with a result, an unknown capability answered "no provider" (read as `not_found`), the
 * manifest at `GET /manifest` listing the capability called, `GET /health` — and one `finding.*` case per
 * contract rule a reference node breaks: unsigned and forged calls refused (§5.1), routing in the §5.1
 * headers, signed answers (§5.2), a signed manifest with a node id that is a key (§6.1, §1.2), the
 * contract's schema hashes (§11), `GET /sync/v1/heads` (§7.6), forged and unsigned events refused by
 * `POST /sync/v1/events` (§7.6, §10). Each finding makes its own requests, so each deviation is reported
 * on its own.
 */
export function hearthnetReferenceNodeSuite(
  options: HearthNetReferenceNodeSuiteOptions,
): ConformanceSuite<Ctx> {
  return {
    name: REFERENCE_NODE_SUITE_NAME,
    version: REFERENCE_NODE_SUITE_VERSION,
    description:
      'A node in the Python reference dialect: its calls, manifest and health in the reference forms, and ' +
      'each contract rule it breaks as a finding of its own (unsigned or forged calls and events accepted, ' +
      'routing, unsigned answers and manifest, schema hashes, sync heads).',
    cases: CASES,
    setup: () => ({ ctx: readOptions(options) }),
  };
}

function readOptions(options: HearthNetReferenceNodeSuiteOptions): Ctx {
  const invalid = (message: string): never => {
    throw new ConformanceError('invalid_run_option', `hearthnetReferenceNodeSuite: ${message}`);
  };
  let base: URL | undefined;
  try {
    base = new URL(options.baseUrl);
  } catch {
    invalid(`baseUrl must be an absolute URL, got ${String(options?.baseUrl)}`);
  }
  const fetchFunction = options.fetch ?? globalThis.fetch;
  if (typeof fetchFunction !== 'function') invalid('no fetch available: pass options.fetch');
  return {
    base: base as URL,
    identity: options.identity,
    community: options.community,
    call: options.call,
    fetch: fetchFunction,
  };
}

function referenceCase(
  id: string,
  title: string,
  section: string,
  level: ConformanceLevel,
  run: (ctx: Ctx) => Promise<void>,
): ConformanceCase<Ctx> {
  return {
    id: `${REFERENCE_NODE_SUITE_NAME}.${id}`,
    title,
    section,
    level,
    since: REFERENCE_NODE_SUITE_VERSION,
    // Every request of the case is aborted with it at its timeout.
    run: (ctx, { signal }) => run({ ...ctx, fetch: fetchWithin(ctx.fetch, signal) }),
  };
}

function client(ctx: Ctx) {
  return createHearthNetClient({
    identity: ctx.identity,
    community: ctx.community,
    node: ctx.base,
    fetch: ctx.fetch,
    wire: referenceWire,
  });
}

/** A POST of `body` (JSON) to `path`, with `headers`. */
function post(
  ctx: Ctx,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return ctx.fetch(new URL(path, ctx.base), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

function callBody(ctx: Ctx): Record<string, unknown> {
  const { capability, version = '1.0', params = {}, input } = ctx.call;
  return { capability, version, params, input };
}

/**
 * Fails unless the node refused a call as §5.1 asks: 401 (or 403), not served and not failing for some
 * other reason — a node that answers 500 or 400 here says nothing about whether it checks callers.
 */
async function expectCallerRefused(response: Response, served: string): Promise<void> {
  const body = await response.json().catch(() => undefined);
  if (response.status === 200 && isJsonObject(body) && 'output' in body) fail(served);
  if (response.status !== 401 && response.status !== 403) {
    fail(`the call was answered HTTP ${response.status} ${clip(body)}, not refused with 401`);
  }
}

/** Whether a `POST /sync/v1/events` answer took any event: `accepted` a positive count or a non-empty list. */
function acceptedAny(body: unknown): boolean {
  if (!isJsonObject(body)) return false;
  const accepted = body['accepted'];
  return (typeof accepted === 'number' && accepted > 0) || (Array.isArray(accepted) && accepted.length > 0);
}

async function manifestOf(ctx: Ctx): Promise<Record<string, unknown>> {
  const response = await ctx.fetch(new URL('/manifest', ctx.base));
  if (response.status !== 200) fail(`GET /manifest answered HTTP ${response.status}`);
  const body = await readJsonBody(response);
  if (!isJsonObject(body)) fail(`GET /manifest answered ${clip(body)}, not an object`);
  return body as Record<string, unknown>;
}

/**
 * A `market.post.created` in the reference's event form (`payload`, `issued_at` in µs), by the caller,
 * with a fresh id (26 characters of RFC 4648 base32): a node that kept an earlier probe must not read a
 * duplicate as a refusal.
 */
function referenceProbeEvent(ctx: Ctx) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const random = globalThis.crypto.getRandomValues(new Uint8Array(26));
  const eventId = Array.from(random, (byte) => alphabet[byte % 32]).join('');
  return {
    schema_version: 1,
    event_id: eventId,
    event_type: 'market.post.created',
    community_id: ctx.community,
    author: ctx.identity.nodeId,
    lamport: 1,
    payload: { title: 'conformance probe', category: 'offer', client_id: `conformance-${eventId}` },
    issued_at: '2026-01-01T00:00:00.000000Z',
  };
}

const CASES: readonly ConformanceCase<Ctx>[] = [
  referenceCase(
    'call.ok',
    'a call in the reference form is served with a result',
    'reference §6',
    'required',
    async (ctx) => {
      const { capability, version, params = {}, input } = ctx.call;
      const result = await client(ctx)
        .call(capability as string, { params, input }, version === undefined ? {} : { version })
        .catch((error: unknown) =>
          fail(
            `${capability} was not served: ${error instanceof Error ? error.message : String(error)}`,
            error,
          ),
        );
      assertTrue(isJsonObject(result) && 'output' in result, `${capability} answered ${clip(result)}`);
    },
  ),
  referenceCase(
    'call.unknown-capability',
    'an unknown capability is answered "no provider" (read as not_found), not served',
    'reference §19',
    'required',
    async (ctx) => {
      const error = await client(ctx)
        .call(ABSENT_CAPABILITY as string, { params: {}, input: {} })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      if (error === undefined) fail(`${ABSENT_CAPABILITY} was served`);
      assertTrue(
        error instanceof NotFoundError,
        `${ABSENT_CAPABILITY} failed with ${error instanceof HearthNetError ? error.code : String(error)}, not not_found`,
      );
    },
  ),
  referenceCase(
    'manifest.lists-call',
    'GET /manifest answers the reference manifest, listing the capability called',
    'reference §19',
    'required',
    async (ctx) => {
      const manifest = await manifestOf(ctx);
      const capabilities = manifest['capabilities'];
      assertTrue(Array.isArray(capabilities), `the manifest has no capabilities list: ${clip(manifest)}`);
      const listed = (capabilities as unknown[]).some(
        (entry) => isJsonObject(entry) && entry['name'] === ctx.call.capability,
      );
      assertTrue(listed, `the manifest does not list ${ctx.call.capability}`);
    },
  ),
  referenceCase(
    'health',
    'GET /health answers {"status": "ok"}',
    'reference §19',
    'recommended',
    async (ctx) => {
      const response = await ctx.fetch(new URL('/health', ctx.base));
      const body = await response.json().catch(() => undefined);
      assertTrue(
        response.status === 200 && isJsonObject(body) && body['status'] === 'ok',
        `GET /health answered HTTP ${response.status} ${clip(body)}`,
      );
    },
  ),
  referenceCase(
    'finding.unsigned-call-refused',
    'an unsigned call is refused (401), not served',
    'HearthNet §5.1',
    'required',
    async (ctx) => {
      await expectCallerRefused(
        await post(ctx, BUS_CALL_PATH, callBody(ctx)),
        'the node served an unsigned call: it checks no caller',
      );
    },
  ),
  referenceCase(
    'finding.forged-call-refused',
    'a call whose signature covers another body is refused (401), not served',
    'HearthNet §5.1',
    'required',
    async (ctx) => {
      const forged = signPayload({ ...callBody(ctx), input: { forged: true } }, ctx.identity).signature;
      const headers = { [WIRE_HEADERS.from]: ctx.identity.nodeId, [WIRE_HEADERS.signature]: forged };
      await expectCallerRefused(
        await post(ctx, BUS_CALL_PATH, callBody(ctx), headers),
        'the node served a call with a forged signature: it checks no signature',
      );
    },
  ),
  referenceCase(
    'finding.header-routing',
    'a call routed in the §5.1 headers, body {params, input}, is served',
    'HearthNet §5.1',
    'required',
    async (ctx) => {
      const contract = createHearthNetClient({
        identity: ctx.identity,
        community: ctx.community,
        node: ctx.base,
        fetch: ctx.fetch,
        verifyResponses: 'none',
        descriptorOf: () => undefined,
      });
      const { capability, version, params = {}, input } = ctx.call;
      await contract
        .call(capability as string, { params, input }, version === undefined ? {} : { version })
        .catch((error: unknown) =>
          fail(
            `a header-routed ${capability} failed: ${error instanceof Error ? error.message : String(error)} — the node routes by the body only`,
            error,
          ),
        );
    },
  ),
  referenceCase(
    'finding.signed-answers',
    'an answer carries X-HearthNet-Signature by X-HearthNet-From',
    'HearthNet §5.2',
    'recommended',
    async (ctx) => {
      const response = await post(ctx, BUS_CALL_PATH, callBody(ctx));
      await response.body?.cancel();
      if (response.headers.get(WIRE_HEADERS.signature) === null) {
        fail(
          `the node's answers carry no ${WIRE_HEADERS.signature}: a caller cannot tell them from a forgery`,
        );
      }
    },
  ),
  referenceCase(
    'finding.manifest-signed',
    'the manifest is signed by its node, whose id is an ed25519 key',
    'HearthNet §6.1, §1.2',
    'required',
    async (ctx) => {
      const manifest = await manifestOf(ctx);
      const nodeId = String(manifest['node_id']);
      const problems = [
        ...(typeof manifest['signature'] === 'string' ? [] : ['it is unsigned']),
        ...(nodeId.startsWith('ed25519:') ? [] : [`its node_id ${JSON.stringify(nodeId)} is no key`]),
      ];
      if (problems.length > 0) fail(`the manifest breaks §6.1: ${problems.join('; ')}`);
    },
  ),
  referenceCase(
    'finding.schema-hashes',
    "the manifest's catalogue capabilities carry the contract's §11 schema hashes",
    'HearthNet §11',
    'required',
    async (ctx) => {
      const manifest = await manifestOf(ctx);
      const entries = Array.isArray(manifest['capabilities']) ? manifest['capabilities'] : [];
      const other: string[] = [];
      for (const entry of entries) {
        if (!isJsonObject(entry) || typeof entry['name'] !== 'string') continue;
        const descriptor = catalogueDescriptor(entry['name']);
        if (descriptor === undefined || entry['version'] !== descriptor.version) continue;
        if (entry['schema_hash'] !== schemaHash(descriptor)) other.push(entry['name']);
      }
      if (other.length > 0) {
        fail(
          `${other.length} catalogue capabilities carry other schema hashes than §11's: ${other.join(', ')}`,
        );
      }
    },
  ),
  referenceCase(
    'finding.sync-heads',
    'GET /sync/v1/heads answers {community_id: lamport}',
    'HearthNet §7.6',
    'required',
    async (ctx) => {
      const response = await ctx.fetch(new URL('/sync/v1/heads', ctx.base));
      const text = await response.text();
      if (response.status !== 200) fail(`GET /sync/v1/heads answered HTTP ${response.status} ${clip(text)}`);
      let heads: unknown;
      try {
        heads = JSON.parse(text);
      } catch {
        heads = undefined;
      }
      const lamports = isJsonObject(heads) ? Object.values(heads) : [undefined];
      if (!lamports.every((value) => Number.isSafeInteger(value) && (value as number) >= 0)) {
        fail(`GET /sync/v1/heads answered ${clip(text)}, not {community_id: lamport}`);
      }
    },
  ),
  referenceCase(
    'finding.forged-event-refused',
    'POST /sync/v1/events rejects an event altered after signing',
    'HearthNet §7.6, §10',
    'required',
    async (ctx) => {
      // In the node's own event form, signed as the reference signs, then altered: only the signature is wrong.
      const signed = referenceEvents.sign(referenceProbeEvent(ctx), ctx.identity);
      const forged = { ...signed, payload: { ...signed.payload, title: 'forged after signing' } };
      const response = await post(ctx, '/sync/v1/events', { community_id: ctx.community, events: [forged] });
      const body = await response.json().catch(() => undefined);
      if (acceptedAny(body)) fail(`the node accepted an event altered after signing: ${clip(body)}`);
    },
  ),
  referenceCase(
    'finding.unsigned-event-refused',
    "POST /sync/v1/events rejects an event without a signature, in the node's own event form",
    'HearthNet §7.6, §10',
    'required',
    async (ctx) => {
      const event = { ...referenceProbeEvent(ctx), signature: '' };
      const response = await post(ctx, '/sync/v1/events', { community_id: ctx.community, events: [event] });
      const body = await response.json().catch(() => undefined);
      if (acceptedAny(body)) fail(`the node accepted an unsigned event: ${clip(body)}`);
    },
  ),
];
