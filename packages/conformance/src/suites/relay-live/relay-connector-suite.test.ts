import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runSuite, type SuiteReport } from '../../run-suite.js';
import { relayConnectorSuite } from './relay-connector-suite.js';
import {
  BROKEN_CONNECTOR_GATEWAY,
  type BrokenConnector,
  type ConnectorFlaw,
  startBrokenConnector,
} from './test-support/broken-connector.js';

const packagesDir = join(import.meta.dirname, '..', '..', '..', '..');
const serverScript = join(import.meta.dirname, 'test-support', 'relay-server-process.ts');
const relayServerSource = pathToFileURL(join(packagesDir, 'relay', 'src', 'server', 'index.ts')).href;
const gateway = { gatewayId: 'gw-conformance', secret: 'relay-server-secret' };
const timing = { patienceMs: 2000, inboundWindowMs: 600 } as const;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts our relay server in its own process; resolves with its relay URL once it listens. */
async function startRelayServerProcess(): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', serverScript, relayServerSource], {
    cwd: join(packagesDir, 'conformance'),
    env: { ...process.env, RELAY_GATEWAY_ID: gateway.gatewayId, RELAY_GATEWAY_SECRET: gateway.secret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      const match = /^listening (\d+)$/.exec(line);
      if (match) resolve(match[1]!);
    });
    void exited.then(() => reject(new Error(`the relay server process exited: ${stderr}`)));
  });
  return `ws://127.0.0.1:${port}/relay`;
}

async function brokenConnector(flaw: ConnectorFlaw): Promise<BrokenConnector> {
  const connector = await startBrokenConnector(flaw);
  cleanups.push(() => connector.close());
  return connector;
}

function statuses(report: SuiteReport): Record<string, string> {
  return Object.fromEntries(report.results.map((r) => [r.id.replace('relay.live.', ''), r.status]));
}

function failure(report: SuiteReport, id: string): string {
  const result = report.results.find((r) => r.id === `relay.live.${id}`);
  expect(result?.status).toBe('failed');
  return result?.error?.message ?? '';
}

describe('relayConnectorSuite', () => {
  it('passes against our relay server running as a separate process', async () => {
    const url = await startRelayServerProcess();
    const report = await runSuite(relayConnectorSuite({ url, ...gateway, platform: 'discord', ...timing }));
    expect(report.errors).toEqual([]);
    expect(report.results.filter((r) => r.status === 'failed')).toEqual([]);
    expect(statuses(report)).toEqual({
      'auth.valid-token-accepted': 'passed',
      'auth.missing-token': 'passed',
      'auth.wrong-secret': 'passed',
      'auth.expired-token': 'passed',
      'hello.descriptor': 'passed',
      'outbound.send': 'passed',
      'outbound.edit': 'passed',
      'outbound.typing': 'passed',
      // No follow_up handler, so the server does not advertise it.
      'outbound.follow_up': 'skipped',
      'outbound.get_chat_info': 'passed',
      'outbound.send_media': 'skipped',
      'outbound.prompt': 'passed',
      'outbound.react': 'passed',
      'outbound.thread_create': 'passed',
      'outbound.thread_rename': 'skipped',
      'outbound.unsupported-op': 'passed',
      'inbound.valid': 'passed',
      'inbound.no-redelivery-after-ack': 'passed',
      'interrupt.connection-survives': 'passed',
    });
  });

  it('names the missing requestId of an outbound_result', async () => {
    const { url } = await brokenConnector('result-without-request-id');
    const report = await runSuite(relayConnectorSuite({ url, ...BROKEN_CONNECTOR_GATEWAY, ...timing }));
    expect(failure(report, 'outbound.send')).toMatch(
      /^the answer to send \(requestId [0-9a-f]{32}\) is not a valid outbound_result: .*requestId/,
    );
    expect(failure(report, 'outbound.unsupported-op')).toMatch(/requestId/);
    expect(statuses(report)['hello.descriptor']).toBe('passed');
    expect(statuses(report)['auth.missing-token']).toBe('passed');
  });

  it('names the mistyped descriptor field', async () => {
    const { url } = await brokenConnector('mistyped-descriptor');
    const report = await runSuite(relayConnectorSuite({ url, ...BROKEN_CONNECTOR_GATEWAY, ...timing }));
    expect(failure(report, 'hello.descriptor')).toBe(
      'the descriptor is mistyped: descriptor.max_message_length must be an integer, got "2000"',
    );
    expect(statuses(report)['auth.wrong-secret']).toBe('passed');
  });

  it('catches an unauthenticated upgrade that is accepted', async () => {
    const { url } = await brokenConnector('accepts-unauthenticated');
    const report = await runSuite(
      relayConnectorSuite({ url, ...BROKEN_CONNECTOR_GATEWAY, ...timing, patienceMs: 500 }),
    );
    expect(failure(report, 'auth.missing-token')).toBe(
      'the connector accepted an upgrade without a token and answered its hello with a descriptor: still open after 500 ms; expected close 4401 "unauthorized"',
    );
    expect(failure(report, 'auth.wrong-secret')).toMatch(
      /^the connector accepted an upgrade with a token signed by a wrong secret/,
    );
    expect(failure(report, 'auth.expired-token')).toMatch(/expected close 4401 "expired"$/);
    expect(statuses(report)['outbound.send']).toBe('passed');
  });

  it('fails every case with the reason when nothing listens', async () => {
    const connector = await startBrokenConnector('accepts-unauthenticated');
    await connector.close();
    const report = await runSuite(
      relayConnectorSuite({ url: connector.url, ...BROKEN_CONNECTOR_GATEWAY, ...timing }),
    );
    expect(failure(report, 'auth.valid-token-accepted')).toMatch(
      /^an upgrade with a valid token failed: cannot reach/,
    );
    expect(report.ok).toBe(false);
  });
});
