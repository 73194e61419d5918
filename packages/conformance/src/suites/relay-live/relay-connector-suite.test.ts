import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { relayConnectorSubject } from '../../cli/bundled-suites.js';
import { runSuite, type SuiteReport } from '../../run-suite.js';
import type { ReceivedLine } from './gateway-probe.js';
import { inboundProblems, relayConnectorSuite } from './relay-connector-suite.js';
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

/**
 * Starts our relay server in its own process; resolves with its relay URL once it listens. `env` adds
 * settings of the process (`RELAY_FALLBACK_PLATFORM`).
 */
async function startRelayServerProcess(env: Readonly<Record<string, string>> = {}): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', serverScript, relayServerSource], {
    cwd: join(packagesDir, 'conformance'),
    env: {
      ...process.env,
      RELAY_GATEWAY_ID: gateway.gatewayId,
      RELAY_GATEWAY_SECRET: gateway.secret,
      ...env,
    },
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
      'hello.descriptor-per-hello': 'passed',
      'outbound.unannounced-platform-refused': 'passed',
      'outbound.unannounced-bot-refused': 'passed',
      'outbound.before-hello': 'passed',
      'framing.batched-and-split': 'passed',
      'outbound.malformed-answered': 'passed',
      'going-idle.acknowledged': 'passed',
      'session.new-connection-replaces-old': 'passed',
      // Without opsSucceed (this server's prompt refuses), the success cases do not run.
      ...Object.fromEntries(
        [
          'send',
          'edit',
          'typing',
          'get_chat_info',
          'send_media',
          'prompt',
          'react',
          'thread_create',
          'thread_rename',
        ].flatMap((op) => [
          [`outbound.${op}.succeeds`, 'skipped'],
          [`outbound.${op}.reaches-platform`, 'skipped'],
        ]),
      ),
      'outbound.routed-to-announced-identity': 'skipped',
      'outbound.sequential-calls-keep-succeeding': 'skipped',
      'framing.lines-terminated': 'passed',
      'outbound.follow_up.unbound-refused': 'skipped',
      'inbound.buffer-drained-in-order': 'skipped',
      'framing.messages-within-gateway-limit': 'passed',
      'interrupt.before-hello': 'passed',
      'hello.unserved-platform-harmless': 'passed',
      'connection.survives-idle': 'skipped',
      'limits.oversized-message-contained': 'passed',
      // Without idleMs, faults and an operator, their cases do not run.
      'connection.unanswered-pings-dropped': 'skipped',
      'outbound.platform-error-answered': 'skipped',
      'outbound.platform-malformed-refused': 'skipped',
      'outbound.platform-hang-timed-out': 'skipped',
      'operator.inbound-while-connected': 'skipped',
      'operator.inbound-while-away': 'skipped',
      'operator.interrupt-inbound': 'skipped',
      'operator.revoke-closes-4401': 'skipped',
      // Without limits, the limits and flow cases do not run.
      'limits.refused-lines-drop': 'skipped',
      'limits.identities-drop': 'skipped',
      'limits.running-calls-busy': 'skipped',
      'limits.unanswered-burst-then-served': 'skipped',
      'flow.paused-reader-loses-nothing': 'skipped',
      'flow.going-idle-while-held': 'skipped',
      'flow.stalled-reader-dropped': 'skipped',
      // Without operator (and its optional members) or a second gateway, these do not run.
      'operator.going-idle-holds-events': 'skipped',
      'operator.concurrent-inbound-all-arrive': 'skipped',
      'operator.going-idle-before-hello': 'skipped',
      'operator.revoke-spares-other-gateways': 'skipped',
      'operator.follow-up-bound': 'skipped',
      // Without secondPlatform (and the operator's platformCalls) the chat routing does not run.
      'chat-routing.frame-without-platform-to-chat-platform': 'skipped',
      'chat-routing.unannounced-chat-platform-to-first': 'skipped',
      'chat-routing.follow-up-to-session-platform': 'skipped',
      'chat-routing.interrupt-to-chat-platform': 'skipped',
      'session.idle-connection-replaces-nothing': 'passed',
      'session.older-connection-replaces-nothing': 'passed',
    });
  });

  it('passes, every case run, against the bundled in-process relay connector (the mutation subject)', async () => {
    const started = await relayConnectorSubject.start();
    cleanups.push(() => started.stop());
    const suite = started.suites.find((candidate) => candidate.name === 'relay.live');
    const report = await runSuite(suite as unknown as Parameters<typeof runSuite>[0]);
    expect(report.errors).toEqual([]);
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
  }, 120_000);

  it('passes the default "relay" hello against a server answering it with its fallbackPlatform', async () => {
    const url = await startRelayServerProcess({ RELAY_FALLBACK_PLATFORM: 'discord' });
    const report = await runSuite(relayConnectorSuite({ url, ...gateway, ...timing }));
    expect(report.errors).toEqual([]);
    expect(report.results.filter((r) => r.status === 'failed')).toEqual([]);
    expect(statuses(report)['hello.descriptor']).toBe('passed');
    expect(statuses(report)['outbound.send']).toBe('passed');
  });

  it('says why the default "relay" hello got no descriptor from a server without a fallback', async () => {
    const url = await startRelayServerProcess();
    const report = await runSuite(relayConnectorSuite({ url, ...gateway, ...timing, patienceMs: 500 }));
    expect(failure(report, 'hello.descriptor')).toBe(
      'no descriptor within 500 ms of the hello for the gateway\'s default platform "relay" (a connector answers it only when it serves "relay" or a fallback platform; pass --platform NAME to say hello for the platform it serves)',
    );
  });

  it('fails a descriptor naming another platform than a named hello, and takes it for the default "relay"', async () => {
    const { url } = await brokenConnector('descriptor-for-other-platform');
    const named = await runSuite(
      relayConnectorSuite({ url, ...BROKEN_CONNECTOR_GATEWAY, ...timing, platform: 'telegram' }),
    );
    expect(failure(named, 'hello.descriptor')).toMatch(
      /descriptor\.platform after a hello for that platform/,
    );
    const defaulted = await runSuite(relayConnectorSuite({ url, ...BROKEN_CONNECTOR_GATEWAY, ...timing }));
    expect(statuses(defaulted)['hello.descriptor']).toBe('passed');
  });

  it('names a 4401 close as the cause, not a missing descriptor', async () => {
    const { url } = await brokenConnector('result-without-request-id');
    const report = await runSuite(
      relayConnectorSuite({
        url,
        gatewayId: BROKEN_CONNECTOR_GATEWAY.gatewayId,
        secret: 'not-the-secret',
        ...timing,
      }),
    );
    const cause =
      'the connector closed the connection with 4401 (unauthorized) instead of answering the hello: it refused the token of gateway "gw-broken": check --gateway-id / --secret';
    expect(failure(report, 'hello.descriptor')).toBe(cause);
    expect(failure(report, 'auth.valid-token-accepted')).toBe(
      `an upgrade with a valid token was refused: ${cause}`,
    );
    expect(failure(report, 'outbound.unsupported-op')).toBe(cause);
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

/** An `inbound` line as the probe records it, for the event's `source`. */
function inboundLine(source: Record<string, unknown>): ReceivedLine {
  const json = {
    type: 'inbound',
    event: {
      text: 'hi',
      message_type: 'text',
      message_id: 'm1',
      reply_to_message_id: null,
      media_urls: [],
      source,
    },
  };
  return { raw: JSON.stringify(json), json };
}

describe('inboundProblems', () => {
  const common = { user_id: '42', user_name: 'tester' };

  it('takes a Telegram forum event without scope_id, as the gateway does', () => {
    const forum = {
      platform: 'telegram',
      chat_id: '-1001234567890',
      chat_type: 'forum',
      thread_id: '5',
      ...common,
    };
    expect(inboundProblems(inboundLine(forum))).toEqual([]);
    const guild = { platform: 'discord', chat_id: '111', chat_type: 'group', ...common };
    expect(inboundProblems(inboundLine(guild))).toEqual([]);
  });

  it('still requires the scope_id of a Slack event, which the gateway keys the session by', () => {
    const slack = { platform: 'slack', chat_id: 'C0123', chat_type: 'channel', ...common };
    expect(inboundProblems(inboundLine(slack))).toEqual([
      'event.source.scope_id must name the Slack workspace (the gateway keys Slack sessions by it), got undefined',
    ]);
    expect(inboundProblems(inboundLine({ ...slack, scope_id: 'T9' }))).toEqual([]);
  });

  it('still requires the keys the session key is built from', () => {
    const problems = inboundProblems(inboundLine({ platform: 'telegram', chat_type: 'forum', ...common }));
    expect(problems[0]).toMatch(/^event\.source\.chat_id is missing/);
  });
});
