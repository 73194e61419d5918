import { basename, dirname } from 'node:path';
import type { DeliveryPayload, DeliveryReceipt, WakeOpts, WakeReceipt } from '@agentwire/agent-connector';
import {
  HttpWebhookAgentConnector,
  type HttpWebhookAgentConnectorOptions,
} from '@agentwire/agent-connector/webhook';
import { generateKeyPair, type KeyPair, keyPairFromSeed } from '@agentwire/hearthnet';
import { readKeyPair, SEED_FILE_NAME } from '@agentwire/hearthnet/key-files';
import samplesFixture from '../../fixtures/hearthnet/capability-samples.json' with { type: 'json' };
import { ConformanceError } from '../errors.js';
import { type ErrorSummary, summarizeError } from '../run-suite.js';
import { agentConnectorSuite } from '../suites/agent-connector/agent-connector-suite.js';
import { webhookSigningSuite } from '../suites/agent-connector/webhook-signing-suite.js';
import { hearthnetNodeSuite, MARKET_POST_SAMPLE } from '../suites/hearthnet/node-suite.js';
import type { NodeSuiteCall } from '../suites/hearthnet/node-suite-checks.js';
import { hearthnetReferenceNodeSuite } from '../suites/hearthnet/reference-node-suite.js';
import { nodeDeclaredLengthProbe } from '../suites/relay-edge/node-declared-length-probe.js';
import { relayEdgeLiveSuite } from '../suites/relay-edge/relay-edge-live-suite.js';
import { relayConnectorSuite } from '../suites/relay-live/relay-connector-suite.js';
import type { BundledSuite } from './bundled-suites.js';
import type { AgentCommand, HearthNetCommand, RelayCommand } from './parse-args.js';

/** One call the suite made on a live webhook agent, and the receipt (or error) it got. */
export interface AgentCallRecord {
  readonly method: 'deliver' | 'wake';
  readonly agent_id: string;
  readonly receipt?: DeliveryReceipt | WakeReceipt;
  readonly error?: ErrorSummary;
}

/** The bundled webhook connector, recording every receipt the live agent's answers gave. */
export class ReceiptRecordingConnector extends HttpWebhookAgentConnector {
  /** Every `deliver` and `wake`, in call order. */
  readonly calls: AgentCallRecord[] = [];

  override async deliver(agent_id: string, payload: DeliveryPayload): Promise<DeliveryReceipt> {
    return this.#record('deliver', agent_id, () => super.deliver(agent_id, payload));
  }

  override async wake(agent_id: string, opts?: WakeOpts): Promise<WakeReceipt> {
    return this.#record('wake', agent_id, () => super.wake(agent_id, opts));
  }

  async #record<R extends DeliveryReceipt | WakeReceipt>(
    method: AgentCallRecord['method'],
    agent_id: string,
    call: () => Promise<R>,
  ): Promise<R> {
    try {
      const receipt = await call();
      this.calls.push({ method, agent_id, receipt });
      return receipt;
    } catch (error) {
      this.calls.push({ method, agent_id, error: summarizeError(error) });
      throw error;
    }
  }
}

/** One line per recorded call, for the CLI's output. */
export function formatAgentCalls(calls: readonly AgentCallRecord[]): string {
  if (calls.length === 0) return 'Receipts: none (no deliver or wake reached the agent)';
  const lines = calls.map((call, i) => {
    const outcome =
      call.error === undefined ? JSON.stringify(call.receipt) : `${call.error.name}: ${call.error.message}`;
    return `  ${String(i + 1).padStart(2)}. ${call.method}(${JSON.stringify(call.agent_id)}) → ${outcome}`;
  });
  return ['Receipts:', ...lines].join('\n');
}

/** The suites of one black-box target, and the agent calls it recorded (the `agent` target). */
export interface TargetRun {
  readonly suites: readonly BundledSuite[];
  readonly agentCalls?: () => readonly AgentCallRecord[];
}

/** The agent id the `agent` target delivers to when `--agent` is not given. */
export const DEFAULT_AGENT_ID = 'conformance-agent';

/** The suites a black-box target runs against the live implementation the command names. */
export async function targetRun(command: RelayCommand | AgentCommand | HearthNetCommand): Promise<TargetRun> {
  switch (command.kind) {
    case 'relay':
      return {
        suites: [
          {
            subject: command.connector,
            suite: wrapUsage(() =>
              relayConnectorSuite({
                url: command.connector,
                gatewayId: command.gatewayId,
                secret: command.secret,
                ...(command.platform === undefined ? {} : { platform: command.platform }),
              }),
            ) as BundledSuite['suite'],
          },
          ...(command.edgeUrl === undefined ? [] : [edgeEntry(command, command.edgeUrl)]),
        ],
      };
    case 'agent':
      return agentRun(command);
    case 'hearthnet': {
      const identity = await identityFor(command);
      if (command.dialect === 'reference') {
        const reference = wrapUsage(() =>
          hearthnetReferenceNodeSuite({
            baseUrl: command.node,
            community: command.community,
            identity,
            call: callOf(command),
          }),
        );
        return { suites: [{ subject: command.node, suite: reference as unknown as BundledSuite['suite'] }] };
      }
      const suite = wrapUsage(() =>
        hearthnetNodeSuite({
          baseUrl: command.node,
          community: command.community,
          identity,
          capabilities: {
            call: callOf(command),
            ...(command.subscribe === true
              ? { subscribe: command.topic === undefined ? {} : { topic: command.topic } }
              : {}),
            ...(command.blobs === undefined ? {} : { blobs: { put: command.blobs === 'put' } }),
            ...(command.noManifest === true ? {} : { manifest: {} }),
            ...(command.noSync === true ? {} : { sync: { push: command.syncPush === true } }),
          },
        }),
      );
      return { suites: [{ subject: command.node, suite: suite as unknown as BundledSuite['suite'] }] };
    }
  }
}

/** The side-channel suite of the `relay` target, against `--edge-url`. */
function edgeEntry(command: RelayCommand, baseUrl: string): TargetRun['suites'][number] {
  return {
    subject: baseUrl,
    suite: wrapUsage(() =>
      relayEdgeLiveSuite({
        baseUrl,
        gatewayId: command.gatewayId,
        secret: command.secret,
        declaredLengthProbe: nodeDeclaredLengthProbe(),
        ...(command.identityToken === undefined || command.enrollmentToken === undefined
          ? {}
          : { identityToken: command.identityToken, enrollmentToken: command.enrollmentToken }),
      }),
    ) as unknown as BundledSuite['suite'],
  };
}

function agentRun(command: AgentCommand): TargetRun {
  const agentId = command.agentId ?? DEFAULT_AGENT_ID;
  const options: HttpWebhookAgentConnectorOptions = {
    agents: {
      [agentId]: {
        url: command.webhook,
        ...(command.wakeUrl === undefined ? {} : { wake_url: command.wakeUrl }),
      },
    },
    ...(command.secret === undefined ? {} : { hmac_secret: command.secret }),
  };
  // The connector checks its options when built: a bad URL is reported as a usage error, before any run.
  wrapUsage(() => new HttpWebhookAgentConnector(options));
  const connectors: ReceiptRecordingConnector[] = [];
  const factory = () => {
    const connector = new ReceiptRecordingConnector(options);
    connectors.push(connector);
    return { connector, agentId };
  };
  return {
    suites: [
      { subject: command.webhook, suite: agentConnectorSuite({ create: factory }) as BundledSuite['suite'] },
      {
        subject: command.webhook,
        suite: webhookSigningSuite({
          url: command.webhook,
          agentId,
          ...(command.secret === undefined ? {} : { secret: command.secret }),
        }) as unknown as BundledSuite['suite'],
      },
    ],
    agentCalls: () => connectors.flatMap((connector) => connector.calls),
  };
}

/** The call of `--capability` (default `market.post`) with `--input` / `--params` or the catalogue's sample. */
function callOf(command: HearthNetCommand): NodeSuiteCall {
  const { capability } = command;
  if (capability === undefined) return MARKET_POST_SAMPLE;
  const given = (text: string | undefined) =>
    text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
  const sample = samplesFixture.cases.find(
    (entry) => entry.capability === capability && entry.part === 'request' && entry.valid,
  )?.value as
    | { readonly params?: Record<string, unknown>; readonly input?: Record<string, unknown> }
    | undefined;
  const input = given(command.input) ?? sample?.input;
  if (input === undefined) {
    throw new ConformanceError(
      'cli_usage',
      `the catalogue has no sample request of ${capability}: give its input with --input JSON`,
    );
  }
  const params = given(command.params) ?? (command.input === undefined ? sample?.params : undefined);
  return { capability, input, ...(params === undefined ? {} : { params }) };
}

async function identityFor(command: HearthNetCommand): Promise<KeyPair> {
  if (command.seedHex !== undefined) {
    if (!/^[0-9a-fA-F]{64}$/.test(command.seedHex))
      throw new ConformanceError('cli_usage', '--seed must be 64 hex digits (a 32-byte Ed25519 seed)');
    return keyPairFromSeed(
      Uint8Array.from(command.seedHex.match(/../g)!, (byte) => Number.parseInt(byte, 16)),
    );
  }
  if (command.keyFile !== undefined) {
    const directory =
      basename(command.keyFile) === SEED_FILE_NAME ? dirname(command.keyFile) : command.keyFile;
    try {
      return await readKeyPair(directory);
    } catch (error) {
      throw new ConformanceError(
        'cli_usage',
        `--key-file: ${error instanceof Error ? error.message : String(error)}`,
        {
          cause: error,
        },
      );
    }
  }
  return generateKeyPair();
}

/** Runs `build`, reporting a refusal of the options as a usage error. */
function wrapUsage<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    throw new ConformanceError('cli_usage', error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
}
