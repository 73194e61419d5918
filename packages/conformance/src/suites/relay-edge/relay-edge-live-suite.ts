import { mintRelayToken } from '@agentwire/relay';
import { assertEqual, assertTrue, fail } from '../../assert.js';
import { ConformanceError } from '../../errors.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { RELAY_SUITE_VERSION } from '../relay/suite-version.js';
import { parseContentDisposition } from './content-disposition.js';
import { bytesEqual } from './edge-implementation.js';

/**
 * Sends `POST url` with `headers` (a `Content-Length` among them) and no body, and resolves with the
 * status the server answers before any body byte arrives. A Fetch API client cannot do this; see
 * `nodeDeclaredLengthProbe` for one built on `node:http`.
 */
export type DeclaredLengthProbe = (url: string, headers: Readonly<Record<string, string>>) => Promise<number>;

/** Options of {@link relayEdgeLiveSuite}. */
export interface RelayEdgeLiveOptions {
  /** The connector's HTTP base (`https://connector.example.com`); the side channels live under `/relay/…`. */
  readonly baseUrl: string;
  /** A gateway the connector knows (`GATEWAY_RELAY_ID`). */
  readonly gatewayId: string;
  /** That gateway's secret (`GATEWAY_RELAY_SECRET`): the suite mints its channel tokens with it. */
  readonly secret: string;
  /**
   * An identity bearer token the connector's verifier accepts: enables the provision checks (which
   * provision `<gatewayId>-conformance-provision`), and with `enrollmentToken` the enroll checks.
   */
  readonly identityToken?: string;
  /** A one-time enrollment token for the identity's tenant; the suite spends it. */
  readonly enrollmentToken?: string;
  /**
   * The gateway id the enroll checks enroll. Default `<gatewayId>-conformance`, so that the gateway
   * under test keeps its secret (enrolling an id again gives it fresh credentials).
   */
  readonly enrollGatewayId?: string;
  /** Sends a `Content-Length` without a body; enables the 413 check. Absent: that case is skipped. */
  readonly declaredLengthProbe?: DeclaredLengthProbe;
  /** The Fetch API implementation. Default the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** The clock tokens are minted with, in milliseconds since the epoch. Default `Date.now`. */
  readonly now?: () => number;
}

/** What every case of {@link relayEdgeLiveSuite} receives. */
export interface RelayEdgeLiveContext {
  readonly baseUrl: string;
  readonly gatewayId: string;
  readonly options: RelayEdgeLiveOptions;
  /** Requests `path` under the base URL. */
  request(path: string, init: RequestInit): Promise<Response>;
  /** A fresh channel token for the gateway, minted with its secret (or with `secret` when given). */
  channelToken(secret?: string): string;
  /** Whether the enroll checks have spent the enrollment token. */
  enrollmentSpent: boolean;
}

const SUITE_NAME = 'relay.edge-live';
const MEDIA_MAX_BYTES = 25 * 1024 * 1024;
const FORGED_SECRET = 'relay-edge-live-suite-forged-secret';
const POLICY_BODY = {
  platform: 'discord',
  requireAddress: false,
  freeResponseScopes: [],
  allowOtherBots: false,
};
const SAMPLE_FILENAME = 'conformance-check.bin';
/** 1 KiB covering every byte value, so that a transfer that is not byte-exact shows. */
const SAMPLE_BYTES = Uint8Array.from({ length: 1024 }, (_, i) => (i * 7 + 3) % 256);

type LiveCase = ConformanceCase<RelayEdgeLiveContext>;

/**
 * A black-box check of a running connector's HTTP side channels, as the gateway uses them (relay
 * reference §7.5, §13): `POST /relay/policy` with the gateway's channel token (200; 401 without a
 * token or with a forged one), the media plane (an upload answered `{id, size}` and downloaded back
 * byte for byte with a `Content-Disposition` naming the file; 401 for unauthenticated uploads and
 * downloads; 413 for a declared 25 MiB + 1 upload when a `declaredLengthProbe` is given) and, with
 * `identityToken` and `enrollmentToken`, `POST /relay/enroll` (200 `{secret, deliveryKey, tenant,
 * gatewayId}`, then 403 for the same token again). Uploads one small file and, for the enroll
 * checks, enrolls `enrollGatewayId`.
 *
 * @example
 * ```ts
 * import { relayEdgeLiveSuite, runSuite, formatReportTable } from '@agentwire/conformance';
 * const report = await runSuite(
 *   relayEdgeLiveSuite({ baseUrl: 'https://connector.example.com', gatewayId: 'gw-1', secret }),
 * );
 * console.log(formatReportTable([report]));
 * ```
 * @throws {ConformanceError} `invalid_relay_edge_live_options`: an unusable option.
 */
export function relayEdgeLiveSuite(options: RelayEdgeLiveOptions): ConformanceSuite<RelayEdgeLiveContext> {
  const baseUrl = checkedBaseUrl(options);
  const capabilities = new Set<string>();
  if (options.identityToken !== undefined && options.enrollmentToken !== undefined)
    capabilities.add('enroll');
  if (options.identityToken !== undefined) capabilities.add('provision');
  if (options.declaredLengthProbe !== undefined) capabilities.add('declared-length-probe');
  return {
    name: SUITE_NAME,
    version: RELAY_SUITE_VERSION,
    description: `The HTTP side channels of the connector at ${baseUrl}: policy, media, provision and enroll.`,
    cases: CASES,
    needs: {
      'declared-length-probe': {
        provide:
          'a declaredLengthProbe option (nodeDeclaredLengthProbe() on Node; the CLI passes it with --edge-url)',
      },
      provision: {
        provide: 'an identityToken the connector’s identity verifier accepts (--identity-token)',
      },
      enroll: {
        provide:
          'an identityToken and a one-time enrollmentToken for its tenant (--identity-token and --enrollment-token)',
      },
    },
    setup: () => {
      const fetchImpl = options.fetch ?? globalThis.fetch;
      const now = options.now ?? Date.now;
      const ctx: RelayEdgeLiveContext = {
        baseUrl,
        gatewayId: options.gatewayId,
        options,
        request: (path, init) => fetchImpl(`${baseUrl}${path}`, { ...init, redirect: 'manual' }),
        channelToken: (secret = options.secret) =>
          mintRelayToken(options.gatewayId, secret, { now: Math.floor(now() / 1000) }),
        enrollmentSpent: false,
      };
      return { ctx, capabilities };
    },
  };
}

function checkedBaseUrl(options: RelayEdgeLiveOptions): string {
  if (typeof options !== 'object' || options === null) {
    throw new ConformanceError('invalid_relay_edge_live_options', 'options must be an object');
  }
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new ConformanceError(
      'invalid_relay_edge_live_options',
      `baseUrl must be an absolute URL, got ${String(options.baseUrl)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConformanceError(
      'invalid_relay_edge_live_options',
      `baseUrl must be http(s), got ${url.protocol}`,
    );
  }
  for (const name of ['gatewayId', 'secret'] as const) {
    if (typeof options[name] !== 'string' || options[name] === '') {
      throw new ConformanceError('invalid_relay_edge_live_options', `${name} must be a non-empty string`);
    }
  }
  return url.href.replace(/\/+$/, '');
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function postPolicy(ctx: RelayEdgeLiveContext, headers: Record<string, string>): Promise<Response> {
  return ctx.request('/relay/policy', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(POLICY_BODY),
  });
}

function upload(ctx: RelayEdgeLiveContext, headers: Record<string, string>): Promise<Response> {
  return ctx.request('/relay/media', {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', 'x-media-filename': SAMPLE_FILENAME, ...headers },
    body: SAMPLE_BYTES,
  });
}

/** Uploads the sample file with a valid token and answers its id. */
async function uploadedId(ctx: RelayEdgeLiveContext): Promise<string> {
  const response = await upload(ctx, bearer(ctx.channelToken()));
  assertEqual(response.status, 200, 'upload status');
  const body = await jsonObject(response, 'the upload answer');
  if (typeof body['id'] !== 'string' || body['id'] === '')
    fail(`the upload answer needs a string id, got ${JSON.stringify(body)}`);
  assertEqual(body['size'], SAMPLE_BYTES.length, 'size in the upload answer');
  return body['id'];
}

async function expectStatus(response: Response, status: number, what: string): Promise<void> {
  await response.body?.cancel();
  assertEqual(response.status, status, `${what}: status`);
}

async function jsonObject(response: Response, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail(`${what} must be JSON, got ${JSON.stringify(text.slice(0, 200))}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    fail(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

async function enroll(ctx: RelayEdgeLiveContext): Promise<Response> {
  ctx.enrollmentSpent = true;
  const { identityToken = '', enrollmentToken = '', enrollGatewayId } = ctx.options;
  return ctx.request('/relay/enroll', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer(identityToken) },
    body: JSON.stringify({ enrollmentToken, gatewayId: enrollGatewayId ?? `${ctx.gatewayId}-conformance` }),
  });
}

const common = { level: 'required', since: RELAY_SUITE_VERSION } as const;
const POLICY = 'relay-reference §13 (relevance policy)';
const MEDIA = 'relay-reference §7.5';
const ENROLL = 'relay-reference §13 (enroll)';
const PROVISION = 'relay-reference §13 (self-provision)';

function provision(ctx: RelayEdgeLiveContext, identityToken: string | undefined): Promise<Response> {
  return ctx.request('/relay/provision', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(identityToken === undefined ? {} : bearer(identityToken)),
    },
    body: JSON.stringify({
      gatewayId: `${ctx.gatewayId}-conformance-provision`,
      platform: 'discord',
      botId: 'conformance-bot',
      gatewayEndpoint: '',
      routeKeys: [],
    }),
  });
}

const CASES: readonly LiveCase[] = [
  {
    ...common,
    id: `${SUITE_NAME}.policy.accepts-channel-token`,
    title: 'POST /relay/policy with the channel token and a valid body is answered 200',
    section: POLICY,
    run: async (ctx) => expectStatus(await postPolicy(ctx, bearer(ctx.channelToken())), 200, 'policy'),
  },
  {
    ...common,
    id: `${SUITE_NAME}.policy.refuses-missing-token`,
    title: 'POST /relay/policy without a bearer token is answered 401',
    section: POLICY,
    run: async (ctx) => expectStatus(await postPolicy(ctx, {}), 401, 'policy without a token'),
  },
  {
    ...common,
    id: `${SUITE_NAME}.policy.refuses-forged-token`,
    title: 'POST /relay/policy with a token signed by another secret is answered 401',
    section: POLICY,
    run: async (ctx) =>
      expectStatus(
        await postPolicy(ctx, bearer(ctx.channelToken(FORGED_SECRET))),
        401,
        'policy, forged token',
      ),
  },
  {
    ...common,
    id: `${SUITE_NAME}.media.round-trip`,
    title: 'an upload is answered {id, size} and downloads back byte for byte, with Content-Disposition',
    section: MEDIA,
    run: async (ctx) => {
      const id = await uploadedId(ctx);
      const response = await ctx.request(`/relay/media/${encodeURIComponent(id)}`, {
        headers: bearer(ctx.channelToken()),
      });
      const bytes = new Uint8Array(await response.arrayBuffer());
      assertEqual(response.status, 200, 'download status');
      assertTrue(
        bytesEqual(bytes, SAMPLE_BYTES),
        `the download must be the ${SAMPLE_BYTES.length} bytes uploaded, got ${bytes.length} other bytes`,
      );
      const disposition = response.headers.get('content-disposition');
      if (disposition === null) fail('the download has no Content-Disposition');
      assertEqual(
        parseContentDisposition(disposition)?.filename,
        SAMPLE_FILENAME,
        `file name in Content-Disposition ${JSON.stringify(disposition)}`,
      );
    },
  },
  {
    ...common,
    id: `${SUITE_NAME}.media.refuses-unauthenticated-upload`,
    title: 'POST /relay/media without a bearer token is answered 401',
    section: MEDIA,
    run: async (ctx) => expectStatus(await upload(ctx, {}), 401, 'upload without a token'),
  },
  {
    ...common,
    id: `${SUITE_NAME}.media.refuses-forged-upload`,
    title: 'POST /relay/media with a token signed by another secret is answered 401',
    section: MEDIA,
    run: async (ctx) =>
      expectStatus(await upload(ctx, bearer(ctx.channelToken(FORGED_SECRET))), 401, 'upload, forged token'),
  },
  {
    ...common,
    id: `${SUITE_NAME}.media.refuses-unauthenticated-download`,
    title: 'GET /relay/media/{id} of an uploaded item without a bearer token is answered 401',
    section: MEDIA,
    run: async (ctx) => {
      const id = await uploadedId(ctx);
      await expectStatus(
        await ctx.request(`/relay/media/${encodeURIComponent(id)}`, {}),
        401,
        'download without a token',
      );
    },
  },
  {
    ...common,
    id: `${SUITE_NAME}.media.refuses-declared-oversize`,
    title: 'an upload announcing 25 MiB + 1 byte in Content-Length is answered 413 before its body is sent',
    section: MEDIA,
    requires: 'declared-length-probe',
    run: async (ctx) => {
      const status = await ctx.options.declaredLengthProbe?.(`${ctx.baseUrl}/relay/media`, {
        ...bearer(ctx.channelToken()),
        'content-type': 'application/octet-stream',
        'content-length': String(MEDIA_MAX_BYTES + 1),
      });
      assertEqual(status, 413, 'status of the oversized upload');
    },
  },
  {
    ...common,
    id: `${SUITE_NAME}.provision.issues-credentials`,
    title:
      'POST /relay/provision with an identity answers {secret, deliveryKey, tenant, gatewayId, routeKeys}, the same credentials every time',
    section: PROVISION,
    requires: 'provision',
    run: async (ctx) => {
      const answers: Record<string, unknown>[] = [];
      for (let i = 0; i < 2; i++) {
        const response = await provision(ctx, ctx.options.identityToken);
        assertEqual(response.status, 200, 'provision status');
        answers.push(await jsonObject(response, 'the provision answer'));
      }
      const [first, second] = answers as [Record<string, unknown>, Record<string, unknown>];
      for (const member of ['secret', 'deliveryKey', 'tenant', 'gatewayId']) {
        assertTrue(
          typeof first[member] === 'string' && first[member] !== '',
          `the provision answer needs a non-empty string ${member}`,
        );
      }
      assertTrue(Array.isArray(first['routeKeys']), 'the provision answer needs a routeKeys array');
      assertEqual(
        second['secret'],
        first['secret'],
        'the secret of a second provision (a live gateway keeps it)',
      );
    },
  },
  {
    ...common,
    id: `${SUITE_NAME}.provision.refuses-anonymous`,
    title: 'POST /relay/provision without an identity bearer is answered 401',
    section: PROVISION,
    requires: 'provision',
    run: async (ctx) => {
      await expectStatus(await provision(ctx, undefined), 401, 'provision without a bearer');
    },
  },
  {
    ...common,
    id: `${SUITE_NAME}.enroll.issues-credentials`,
    title:
      'POST /relay/enroll with an identity and an enrollment token answers {secret, deliveryKey, tenant, gatewayId}',
    section: ENROLL,
    requires: 'enroll',
    run: async (ctx) => {
      if (ctx.enrollmentSpent) fail('the enrollment token was already spent by an earlier case');
      const response = await enroll(ctx);
      assertEqual(response.status, 200, 'enroll status');
      const body = await jsonObject(response, 'the enroll answer');
      for (const member of ['secret', 'deliveryKey', 'tenant', 'gatewayId']) {
        assertTrue(
          typeof body[member] === 'string' && body[member] !== '',
          `the enroll answer needs a non-empty string ${member}`,
        );
      }
      assertEqual(
        body['gatewayId'],
        ctx.options.enrollGatewayId ?? `${ctx.gatewayId}-conformance`,
        'gatewayId',
      );
    },
  },
  {
    ...common,
    id: `${SUITE_NAME}.enroll.refuses-reused-token`,
    title: 'POST /relay/enroll with an enrollment token already used is answered 403',
    section: ENROLL,
    requires: 'enroll',
    run: async (ctx) => {
      if (!ctx.enrollmentSpent) await (await enroll(ctx)).body?.cancel();
      await expectStatus(await enroll(ctx), 403, 'enroll with a used token');
    },
  },
];
