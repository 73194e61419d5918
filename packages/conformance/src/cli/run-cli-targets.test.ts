import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webhookSignature } from '@agentwire/agent-connector/webhook';
import { keyPairFromSeed } from '@agentwire/hearthnet';
import { createRelayServer } from '@agentwire/relay/server';
import { afterEach, describe, expect, it } from 'vitest';
import { createWebhookReceiverHarness } from '../suites/agent-connector/webhook-receiver-harness.js';
import { startAgentwireNode } from '../suites/hearthnet/agentwire-node.js';
import {
  BROKEN_CONNECTOR_GATEWAY,
  startBrokenConnector,
} from '../suites/relay-live/test-support/broken-connector.js';
import { memoryIo } from './cli-io.test-support.js';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, runCli } from './run-cli.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agentwire-cli-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A live webhook agent on 127.0.0.1: the receiver harness behind a real HTTP server; `checks: false`
 * makes it an agent that never checks the signature.
 */
async function startWebhookAgent(secret: string, checks = true): Promise<string> {
  const receiver = createWebhookReceiverHarness(
    checks ? { verifySignature: (signature, body) => signature === webhookSignature(secret, body) } : {},
  );
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const answer = await receiver.fetch(`http://127.0.0.1${request.url}`, {
      method: request.method ?? 'GET',
      headers: request.headers as Record<string, string>,
      ...(request.method === 'GET' ? {} : { body: Buffer.concat(chunks).toString('utf8') }),
    });
    response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
    response.end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/perry`;
}

/** agentwire's HearthNet node, whose community the key pair of seed 0x2a… belongs to (trusted). */
async function startHearthNetNode(): Promise<{ url: string; community: string }> {
  const node = await startAgentwireNode({
    node: keyPairFromSeed(new Uint8Array(32).fill(41)),
    member: keyPairFromSeed(new Uint8Array(32).fill(42)),
  });
  cleanups.push(() => node.close());
  return { url: node.url, community: node.node.nodeId };
}

describe('runCli targets', () => {
  it('lists the fixture files with their case counts and descriptions', async () => {
    const { io, out } = memoryIo();
    expect(await runCli(['fixtures', '--list'], io)).toBe(EXIT_OK);
    const tokens = JSON.parse(
      await readFile(join(import.meta.dirname, '../../fixtures/relay/tokens.json'), 'utf8'),
    ) as { cases: unknown[]; description: string };
    const line = out.find((l) => l.startsWith('relay/tokens.json'));
    expect(line).toMatch(new RegExp(`^relay/tokens\\.json +${tokens.cases.length} cases  `));
    expect(tokens.description.startsWith(line!.replace(/^.*? cases {2}/, ''))).toBe(true);
    expect(out.some((l) => l.startsWith('hearthnet/canonical-json.json'))).toBe(true);
  });

  it('exports the fixture tree', async () => {
    const target = join(await tempDir(), 'fixtures');
    const { io, out } = memoryIo();
    expect(await runCli(['fixtures', '--export', target], io)).toBe(EXIT_OK);
    const source = join(import.meta.dirname, '../../fixtures');
    const list = async (dir: string) =>
      (await readdir(dir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile())
        .map((e) => join(e.parentPath, e.name).slice(dir.length))
        .sort();
    const copied = await list(target);
    expect(copied).toEqual(await list(source));
    expect(out).toEqual([`exported ${copied.length} fixture files to ${target}`]);
    expect(await readFile(join(target, 'relay/tokens.json'), 'utf8')).toBe(
      await readFile(join(source, 'relay/tokens.json'), 'utf8'),
    );
  });

  it('runs the agent target against a live webhook agent, with HMAC, and reports the receipts', async () => {
    const secret = 'agent-secret';
    const url = await startWebhookAgent(secret);
    const { io, out, files } = memoryIo();
    const status = await runCli(
      ['agent', '--webhook', url, '--secret', secret, '--agent', 'perry', '--json', 'r.json'],
      io,
    );
    const text = out.join('\n');
    expect(text).not.toMatch(/^(FAIL|STALE|ERROR) /m);
    expect(status).toBe(EXIT_OK);
    expect(text).toContain(`agent-connector.contract (${url})`);
    expect(text).toMatch(
      /Receipts:\n {3}1\. deliver\("perry"\) → \{"delivered_at":\d+,"delivery_id":"received-\d+"/,
    );
    const written = JSON.parse(files.get('r.json')!) as { agentCalls: { method: string }[] };
    expect(written.agentCalls.length).toBeGreaterThan(0);
    expect(new Set(written.agentCalls.map((c) => c.method))).toEqual(new Set(['deliver', 'wake']));
  });

  it('runs the implementations of --subjects alongside a target, given before it', async () => {
    const secret = 'subjects-secret';
    const url = await startWebhookAgent(secret);
    const subjects = join(await tempDir(), 'subjects.mjs');
    await writeFile(
      subjects,
      `export default { agentConnectors: [{ name: 'refusing connector', create: () => ({ connector: {} }) }] };`,
    );
    const { io, files } = memoryIo();
    const args = ['--subjects', subjects, '--json', 'r.json', 'agent', '--webhook', url, '--secret', secret];
    expect(await runCli(args, io)).toBe(EXIT_FAILED);
    const { reports } = JSON.parse(files.get('r.json')!) as { reports: { subject: string; ok: boolean }[] };
    expect(reports.map((r) => [r.subject, r.ok])).toEqual([
      [url, true],
      [url, true],
      ['refusing connector', false],
    ]);
  });

  it('fails the agent target against an agent that never checks the signature', async () => {
    const url = await startWebhookAgent('agent-secret', false);
    const { io, out } = memoryIo();
    expect(await runCli(['agent', '--webhook', url, '--secret', 'agent-secret'], io)).toBe(EXIT_FAILED);
    const failed = out
      .join('\n')
      .match(/^FAIL +\S+/gm)
      ?.map((line) => line.split(/ +/)[1]);
    expect(failed).toEqual([
      'agent-connector.webhook-signing.unsigned-refused',
      'agent-connector.webhook-signing.wrong-key-refused',
      'agent-connector.webhook-signing.tampered-body-refused',
    ]);
    // Without the key the signing cases cannot run, and the skip says what to give.
    const unkeyed = memoryIo();
    expect(await runCli(['agent', '--webhook', url], unkeyed.io)).toBe(EXIT_OK);
    expect(unkeyed.out.join('\n')).toContain("provide the agent's HMAC key (--secret S on the command line)");
  });

  it('fails the agent target when the agent refuses the signature', async () => {
    const url = await startWebhookAgent('agent-secret');
    const { io, out } = memoryIo();
    expect(await runCli(['agent', '--webhook', url, '--secret', 'other-secret'], io)).toBe(EXIT_FAILED);
    expect(out.join('\n')).toMatch(/^FAIL .*http_status|^FAIL .*401/m);
  });

  it('runs the relay target and reports the broken descriptor; a baseline turns it into an expected failure', async () => {
    const connector = await startBrokenConnector('mistyped-descriptor');
    cleanups.push(() => connector.close());
    const args = ['relay', '--connector', connector.url, '--gateway-id', BROKEN_CONNECTOR_GATEWAY.gatewayId];
    const failing = memoryIo();
    expect(await runCli([...args, '--secret', BROKEN_CONNECTOR_GATEWAY.secret], failing.io)).toBe(
      EXIT_FAILED,
    );
    expect(failing.out.join('\n')).toContain(
      `FAIL       relay.live.hello.descriptor on ${connector.url} (relay-reference §2.4, §3, required): ConformanceError: the descriptor is mistyped: descriptor.max_message_length must be an integer, got "2000"`,
    );
    // The test connector speaks the 1.0.0 protocol only: the 1.1.0 cases it fails go in the baseline too.
    const known = [
      'relay.live.hello.descriptor',
      'relay.live.outbound.unannounced-platform-refused',
      'relay.live.outbound.unannounced-bot-refused',
      'relay.live.outbound.before-hello',
      'relay.live.outbound.malformed-answered',
      'relay.live.going-idle.acknowledged',
      'relay.live.session.new-connection-replaces-old',
      'relay.live.session.idle-connection-replaces-nothing',
    ];
    const baselined = memoryIo({ 'known.txt': `${known.join('\n')}\n` });
    expect(
      await runCli(
        [...args, '--secret', BROKEN_CONNECTOR_GATEWAY.secret, '--expected-failures', 'known.txt'],
        baselined.io,
      ),
    ).toBe(EXIT_OK);
  }, 60_000);

  it('runs the relay target with the default platform against a fallbackPlatform, and names a 4401 as the cause', async () => {
    const gatewayId = 'gw-cli';
    const secret = 'cli-relay-secret';
    // A connector that serves one platform and answers the gateway's default "relay" hello with it.
    const server = await createRelayServer({
      port: 0,
      authenticate: (id) => (id === gatewayId ? { tenant: 'tenant-cli', secrets: [secret] } : null),
      platforms: {
        memchat: {
          descriptor: {
            platform: 'memchat',
            label: 'In-memory chat',
            max_message_length: 4000,
            supports_draft_streaming: false,
            supports_edit: false,
            supports_threads: false,
            markdown_dialect: 'plain',
            len_unit: 'chars',
          },
          send: ({ chat_id }) => ({ success: true, message_id: `${chat_id}-1` }),
          typing: () => ({ success: true }),
        },
      },
      fallbackPlatform: 'memchat',
    });
    cleanups.push(() => server.close());
    const url = `ws://127.0.0.1:${server.port}/relay`;
    const args = ['relay', '--connector', url, '--gateway-id', gatewayId];
    const passing = memoryIo();
    expect(await runCli([...args, '--secret', secret], passing.io)).toBe(EXIT_OK);
    expect(passing.out.join('\n')).not.toMatch(/^(FAIL|ERROR) /m);
    const refused = memoryIo();
    expect(await runCli([...args, '--secret', 'not-the-secret'], refused.io)).toBe(EXIT_FAILED);
    expect(refused.out.join('\n')).toContain(
      `FAIL       relay.live.hello.descriptor on ${url} (relay-reference §2.4, §3, required): ConformanceError: the connector closed the connection with 4401 (unauthorized) instead of answering the hello: it refused the token of gateway "gw-cli": check --gateway-id / --secret`,
    );
    expect(refused.out.join('\n')).not.toContain('no descriptor within');
  });

  it('reports unusable target options as usage errors', async () => {
    const relay = memoryIo();
    expect(
      await runCli(['relay', '--connector', 'ftp://x', '--gateway-id', 'g', '--secret', 's'], relay.io),
    ).toBe(EXIT_USAGE);
    expect(relay.err.join('\n')).toContain('url must be a ws(s):// or http(s):// URL');
    const seed = memoryIo();
    expect(
      await runCli(
        ['hearthnet', '--node', 'http://127.0.0.1:1', '--community', 'c', '--seed', 'zz'],
        seed.io,
      ),
    ).toBe(EXIT_USAGE);
    expect(seed.err.join('\n')).toContain('--seed must be 64 hex digits');
  });

  it('runs the hearthnet target against a live node with the identity of --seed', async () => {
    const { url, community } = await startHearthNetNode();
    const { io, out } = memoryIo();
    const status = await runCli(
      ['hearthnet', '--node', url, '--community', community, '--seed', '2a'.repeat(32)],
      io,
    );
    const text = out.join('\n');
    expect(text).not.toMatch(/^(FAIL|STALE|ERROR) /m);
    expect(status).toBe(EXIT_OK);
    expect(text).toMatch(
      new RegExp(`^hearthnet\\.node \\(${url.replace(/[.]/g, '\\.')}\\) +\\S+ +[1-9]\\d* +0 `, 'm'),
    );
  });

  it('checks the long poll and blob transfer with --subscribe and --blobs put', async () => {
    const { url, community } = await startHearthNetNode();
    const { io, out, files } = memoryIo();
    const status = await runCli(
      [
        'hearthnet',
        '--node',
        url,
        '--community',
        community,
        '--seed',
        '2a'.repeat(32),
        '--subscribe',
        '--blobs',
        'put',
        '--json',
        'r.json',
      ],
      io,
    );
    expect(out.join('\n')).not.toMatch(/^(FAIL|STALE|ERROR) /m);
    expect(status).toBe(EXIT_OK);
    const report = JSON.parse(files.get('r.json')!) as {
      reports: { results: { id: string; status: string }[] }[];
    };
    const statusOf = new Map(report.reports.flatMap((r) => r.results.map((c) => [c.id, c.status] as const)));
    for (const id of [
      'subscribe.poll',
      'subscribe.local-only-refused',
      'blobs.read-unknown',
      'blobs.put-read',
    ]) {
      expect(statusOf.get(`hearthnet.node.${id}`), id).toBe('passed');
    }
  });

  it('checks the manifest and sync endpoints by default, pushes with --sync-push, leaves them out with --no-*', async () => {
    const { url, community } = await startHearthNetNode();
    const run = async (...extra: string[]) => {
      const { io, files } = memoryIo();
      const status = await runCli(
        [
          'hearthnet',
          '--node',
          url,
          '--community',
          community,
          '--seed',
          '2a'.repeat(32),
          '--json',
          'r.json',
          ...extra,
        ],
        io,
      );
      const report = JSON.parse(files.get('r.json')!) as {
        reports: { results: { id: string; status: string }[] }[];
      };
      const statusOf = new Map(
        report.reports.flatMap((r) =>
          r.results.map((c) => [c.id.replace('hearthnet.node.', ''), c.status] as const),
        ),
      );
      return { status, statusOf };
    };
    const plain = await run();
    expect(plain.status).toBe(EXIT_OK);
    for (const id of [
      'manifest.valid',
      'manifest.capabilities',
      'sync.heads',
      'sync.events-forged-refused',
    ]) {
      expect(plain.statusOf.get(id), id).toBe('passed');
    }
    expect(plain.statusOf.get('sync.events-push')).toBe('skipped');
    const pushed = await run('--sync-push');
    expect(pushed.statusOf.get('sync.events-push')).toBe('passed');
    const without = await run('--no-manifest', '--no-sync');
    expect(without.status).toBe(EXIT_OK);
    expect(without.statusOf.get('manifest.valid')).toBe('skipped');
    expect(without.statusOf.get('sync.heads')).toBe('skipped');
  });

  it('calls the capability of --capability, with the catalogue sample or --input', async () => {
    const { url, community } = await startHearthNetNode();
    const callOk = async (...extra: string[]) => {
      const { io, files } = memoryIo();
      const args = ['hearthnet', '--node', url, '--community', community, '--seed', '2a'.repeat(32)];
      await runCli([...args, '--json', 'r.json', ...extra], io);
      const report = JSON.parse(files.get('r.json')!) as {
        reports: { results: { id: string; status: string }[] }[];
      };
      return report.reports[0]?.results.find((c) => c.id === 'hearthnet.node.call.ok')?.status;
    };
    expect(await callOk('--capability', 'file.list')).toBe('passed');
    // The node does not serve rag.query: the call is made, and answered not_found.
    expect(await callOk('--capability', 'rag.query')).toBe('failed');
    const input = (fields: object) => JSON.stringify({ client_id: 'cli-1', category: 'offer', ...fields });
    expect(await callOk('--capability', 'market.post', '--input', input({ title: 'Bread' }))).toBe('passed');
    expect(await callOk('--capability', 'market.post', '--input', input({ title: 7 }))).toBe('failed');
    const { io, err } = memoryIo();
    const args = ['hearthnet', '--node', url, '--community', community, '--capability', 'x.custom'];
    expect(await runCli(args, io)).toBe(EXIT_USAGE);
    expect(err.join('\n')).toContain(
      'the catalogue has no sample request of x.custom: give its input with --input JSON',
    );
  });

  it('refuses --topic without --subscribe and an unknown --blobs mode', async () => {
    for (const extra of [
      ['--topic', 'x'],
      ['--blobs', 'write'],
    ]) {
      const { io, err } = memoryIo();
      expect(
        await runCli(['hearthnet', '--node', 'http://127.0.0.1:1', '--community', 'c', ...extra], io),
      ).toBe(EXIT_USAGE);
      expect(err.join('\n')).toMatch(/--topic needs --subscribe|--blobs is read or put/);
    }
  });
});
