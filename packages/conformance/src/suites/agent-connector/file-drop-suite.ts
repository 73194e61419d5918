import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentConnector, DeliveryPayload } from '@agentwire/agent-connector';
import { assertEqual, assertRejects, assertTrue, fail, formatValue } from '../../assert.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import {
  assertDeliveryReceipt,
  assertWakeReceipt,
  augmentPayload,
  minimalMeta,
  mustResolve,
  richMeta,
} from './agent-connector-suite.js';

/** Options of {@link fileDropSuite}. */
export interface FileDropSuiteOptions {
  /**
   * Builds the connector under test on drop folder `dir` (a fresh empty folder per case, which the
   * suite removes), with `agentId` as its only configured agent.
   */
  readonly create: (dir: string, agentId: string) => AgentConnector | Promise<AgentConnector>;
  /**
   * Builds a connector on `dir` with no agent list, one that takes its agents from the folders of
   * `dir`. Enables the `agents-from-folders` capability.
   */
  readonly createWithoutAgents?: (dir: string) => AgentConnector | Promise<AgentConnector>;
}

/** What every case receives. */
export interface FileDropContext {
  readonly options: FileDropSuiteOptions;
}

type Case = ConformanceCase<FileDropContext>;

const SUITE_NAME = 'agent-connector.file-drop';
/** Version of the file-drop suite. */
export const FILE_DROP_SUITE_VERSION = '1.0.0';
const since = FILE_DROP_SUITE_VERSION;
const SECTION = 'File-drop substrate (docs/agent-connector.md, "File-drop connector")';
const AGENT = 'perry';
/** The longest dispatch id a drop file name holds: 255 bytes less `.json`. */
const MAX_DISPATCH_ID_BYTES = 250;

/** A drop folder for one case, the connector on it, and a listing of every file under it. */
interface Drop {
  readonly dir: string;
  readonly connector: AgentConnector;
  /** Every file under `dir`, as paths relative to it, sorted. */
  files(): Promise<string[]>;
  /** The JSON document of the file at `relative`. */
  document(relative: string): Promise<Record<string, unknown>>;
}

async function withDrop<R>(
  build: (dir: string) => AgentConnector | Promise<AgentConnector>,
  body: (drop: Drop) => Promise<R>,
): Promise<R> {
  const parent = await mkdtemp(join(tmpdir(), 'agentwire-file-drop-'));
  const dir = join(parent, 'drop');
  await mkdir(dir);
  try {
    const connector = await build(dir);
    return await body({
      dir,
      connector,
      files: async () => {
        const entries = await readdir(parent, { recursive: true, withFileTypes: true });
        return entries
          .filter((entry) => entry.isFile())
          .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
          .sort();
      },
      document: async (relative) => {
        const text = await readFile(join(dir, relative), 'utf8');
        try {
          return JSON.parse(text) as Record<string, unknown>;
        } catch (error) {
          return fail(`${relative} is not JSON: ${formatValue(text.slice(0, 80))}`, error);
        }
      },
    });
  } finally {
    await rm(parent, { recursive: true, force: true });
  }
}

const withConfigured = <R>(ctx: FileDropContext, body: (drop: Drop) => Promise<R>) =>
  withDrop((dir) => ctx.options.create(dir, AGENT), body);

/** Requires `action` to reject with a `DeliveryFailedError` of `cause_kind` `client_validation`. */
async function assertClientRefusal(action: () => Promise<unknown>, what: string): Promise<void> {
  const error = (await assertRejects(action, what)) as {
    readonly name?: unknown;
    readonly code?: unknown;
    readonly cause_kind?: unknown;
    readonly agent_id?: unknown;
  };
  assertEqual(
    { name: error?.name, code: error?.code, cause_kind: error?.cause_kind },
    { name: 'DeliveryFailedError', code: 'delivery_failed', cause_kind: 'client_validation' },
    `${what}: the refusal`,
  );
  assertTrue(typeof error.agent_id === 'string', `${what}: the refusal names the agent_id`);
}

function payloadWithDispatchId(dispatchId: string): DeliveryPayload {
  return augmentPayload({ ...minimalMeta('file-drop'), dispatch_id: dispatchId });
}

/** A required case of the suite. */
function dropCase(id: string, title: string, run: Case['run'], requires?: string): Case {
  return {
    id: `${SUITE_NAME}.${id}`,
    title,
    section: SECTION,
    level: 'required',
    since,
    ...(requires === undefined ? {} : { requires }),
    run,
  };
}

const cases: readonly Case[] = [
  dropCase(
    'deliver.one-file',
    'deliver writes one file, <dir>/<agent>/<dispatch_id>.json, holding agent_id, kind and the payload',
    (ctx) =>
      withConfigured(ctx, async ({ connector, files, document }) => {
        const payload = augmentPayload(richMeta('file-drop'));
        const receipt = assertDeliveryReceipt(
          await mustResolve('deliver', () => connector.deliver(AGENT, payload)),
        );
        const name = `${AGENT}/${payload.meta.dispatch_id}.json`;
        assertEqual(await files(), [name], 'files under the drop folder');
        assertEqual(await document(name), { agent_id: AGENT, kind: 'augment', payload }, 'the drop document');
        assertEqual(receipt.delivery_id, name, 'delivery_id');
        assertEqual(receipt.session_id, undefined, 'session_id of a delivery without a session');
      }),
  ),
  dropCase(
    'deliver.session',
    'a delivery to agent@session goes to the agent folder, with session_id in the document and the receipt',
    (ctx) =>
      withConfigured(ctx, async ({ connector, files, document }) => {
        const payload = augmentPayload(minimalMeta('file-drop'));
        const receipt = assertDeliveryReceipt(
          await mustResolve('deliver', () => connector.deliver(`${AGENT}@kitchen`, payload)),
        );
        const name = `${AGENT}/${payload.meta.dispatch_id}.json`;
        assertEqual(await files(), [name], 'files under the drop folder');
        assertEqual(
          await document(name),
          { agent_id: `${AGENT}@kitchen`, session_id: 'kitchen', kind: 'augment', payload },
          'the drop document',
        );
        assertEqual(receipt.session_id, 'kitchen', 'session_id of the receipt');
      }),
  ),
  dropCase(
    'deliver.retry-same',
    'the same delivery again leaves the one file as it is and warns in the receipt',
    (ctx) =>
      withConfigured(ctx, async ({ connector, files, document }) => {
        const payload = augmentPayload(minimalMeta('file-drop'));
        const first = assertDeliveryReceipt(
          await mustResolve('deliver', () => connector.deliver(AGENT, payload)),
        );
        assertEqual(first.warnings, undefined, 'warnings of the first delivery');
        const again = assertDeliveryReceipt(
          await mustResolve('deliver again', () => connector.deliver(AGENT, structuredClone(payload))),
        );
        assertTrue(
          Array.isArray(again.warnings) && again.warnings.length > 0,
          `the repeated delivery's receipt warns, got ${formatValue(again.warnings)}`,
        );
        assertEqual(again.delivery_id, first.delivery_id, 'delivery_id of the repeat');
        const name = `${AGENT}/${payload.meta.dispatch_id}.json`;
        assertEqual(await files(), [name], 'files under the drop folder');
        assertEqual((await document(name))['payload'], payload, 'the payload kept');
      }),
  ),
  dropCase(
    'deliver.conflict',
    'other content under a dispatch_id already written is refused (client_validation) and the file is kept',
    (ctx) =>
      withConfigured(ctx, async ({ connector, files, document }) => {
        const payload = augmentPayload(minimalMeta('file-drop'));
        await mustResolve('deliver', () => connector.deliver(AGENT, payload));
        const other = { ...payload, content: 'something else entirely' };
        await assertClientRefusal(
          () => connector.deliver(AGENT, other),
          'a different payload, same dispatch_id',
        );
        const name = `${AGENT}/${payload.meta.dispatch_id}.json`;
        assertEqual(await files(), [name], 'files under the drop folder');
        assertEqual((await document(name))['payload'], payload, 'the first payload kept');
      }),
  ),
  dropCase(
    'deliver.unsafe-dispatch-ids',
    'a dispatch_id that is not one safe file name is refused (client_validation) and nothing is written',
    (ctx) =>
      withConfigured(ctx, async ({ connector, files }) => {
        const unsafe = [
          '.',
          '..',
          '../escape',
          'a/b',
          'a\\b',
          'tab\there',
          'del\u007f',
          'é'.repeat(MAX_DISPATCH_ID_BYTES / 2 + 1),
        ];
        for (const dispatchId of unsafe) {
          await assertClientRefusal(
            () => connector.deliver(AGENT, payloadWithDispatchId(dispatchId)),
            `dispatch_id ${formatValue(dispatchId)}`,
          );
        }
        assertEqual(await files(), [], 'files after the refused deliveries');
      }),
  ),
  dropCase(
    'deliver.longest-dispatch-id',
    `a dispatch_id of ${MAX_DISPATCH_ID_BYTES} UTF-8 bytes (the name then holds 255) is written`,
    (ctx) =>
      withConfigured(ctx, async ({ connector, files }) => {
        const dispatchId = 'é'.repeat(MAX_DISPATCH_ID_BYTES / 2);
        await mustResolve('deliver', () => connector.deliver(AGENT, payloadWithDispatchId(dispatchId)));
        assertEqual(await files(), [`${AGENT}/${dispatchId}.json`], 'files under the drop folder');
      }),
  ),
  dropCase(
    'deliver.unsafe-agent',
    'an agent that is not one safe folder name, or not configured, is refused (client_validation) and nothing is written',
    (ctx) =>
      withConfigured(ctx, async ({ connector, files, dir }) => {
        for (const agent of ['..', '.', 'a/b', 'a\\b', 'ctl\u0001', 'stranger']) {
          await assertClientRefusal(
            () => connector.deliver(agent, augmentPayload(minimalMeta('file-drop'))),
            `deliver to agent ${formatValue(agent)}`,
          );
        }
        assertEqual(await files(), [], 'files after the refused deliveries');
        assertEqual(await readdir(dir), [], 'folders made for refused agents');
      }),
  ),
  dropCase(
    'deliver.missing-folder',
    'with the drop folder gone, deliver is refused (client_validation) and does not make the folder',
    (ctx) =>
      withConfigured(ctx, async ({ connector, dir }) => {
        await rm(dir, { recursive: true });
        await assertClientRefusal(
          () => connector.deliver(AGENT, augmentPayload(minimalMeta('file-drop'))),
          'deliver into a missing drop folder',
        );
        const made = await readdir(dir).then(
          () => true,
          () => false,
        );
        assertEqual(made, false, 'the drop folder was made again');
      }),
  ),
  dropCase(
    'wake.file',
    'wake writes one wake-<id>.json file with agent_id, kind wake and the context, and reports woken: false',
    (ctx) =>
      withConfigured(ctx, async ({ connector, files, document }) => {
        const receipt = assertWakeReceipt(
          await mustResolve('wake', () =>
            connector.wake(AGENT, { context: 'Conformance: the file-drop wake.' }),
          ),
        );
        assertEqual(receipt.woken, false, 'woken (a folder interrupts nobody)');
        assertEqual(receipt.warnings, undefined, 'warnings of an immediate wake');
        const written = await files();
        assertEqual(written.length, 1, `files under the drop folder: ${formatValue(written)}`);
        const [name] = written;
        assertTrue(/^perry\/wake-[^/]+\.json$/.test(name!), `the wake file's name, got ${formatValue(name)}`);
        assertEqual(
          await document(name!),
          { agent_id: AGENT, kind: 'wake', context: 'Conformance: the file-drop wake.' },
          'the wake document',
        );
        await mustResolve('wake again', () => connector.wake(AGENT));
        assertEqual((await files()).length, 2, 'files after a second wake (each wake is a new file)');
      }),
  ),
  dropCase(
    'wake.session-and-schedule',
    'a wake for a session and a time writes them in the document, and warns that it was written at once',
    (ctx) =>
      withConfigured(ctx, async ({ connector, files, document }) => {
        const when = Date.now() + 60_000;
        const receipt = assertWakeReceipt(
          await mustResolve('wake', () => connector.wake(`${AGENT}@kitchen`, { when })),
        );
        assertEqual(receipt.session_id, 'kitchen', 'session_id of the receipt');
        assertTrue(
          Array.isArray(receipt.warnings) && receipt.warnings.length > 0,
          `a scheduled wake's receipt warns, got ${formatValue(receipt.warnings)}`,
        );
        const [name] = await files();
        assertEqual(
          await document(name!),
          { agent_id: `${AGENT}@kitchen`, session_id: 'kitchen', kind: 'wake', when },
          'the wake document',
        );
      }),
  ),
  dropCase(
    'health',
    'health_check is true on a writable drop folder, false once it is gone or a file',
    (ctx) =>
      withConfigured(ctx, async ({ connector, dir }) => {
        assertEqual(
          await mustResolve('health_check', () => connector.health_check()),
          true,
          'health, folder there',
        );
        await rm(dir, { recursive: true });
        assertEqual(
          await mustResolve('health_check', () => connector.health_check()),
          false,
          'health, folder gone',
        );
        await writeFile(dir, 'not a folder');
        assertEqual(
          await mustResolve('health_check', () => connector.health_check()),
          false,
          'health, a file in its place',
        );
      }),
  ),
  dropCase(
    'agents.configured',
    'list_agents lists the configured agent, able to take deliveries; the class declares what the layout gives',
    (ctx) =>
      withConfigured(ctx, async ({ connector }) => {
        const agents = await mustResolve('list_agents', () => connector.list_agents());
        assertEqual(
          agents.map((agent) => agent.agent_id),
          [AGENT],
          'agent ids listed',
        );
        assertTrue(
          agents.every((agent) => agent.capabilities?.includes('deliver') === true),
          `every listed agent takes deliveries, got capabilities ${formatValue(agents.map((a) => a.capabilities))}`,
        );
        const declared = (
          connector.constructor as { staticCapabilities?: () => { features?: Record<string, unknown> } }
        ).staticCapabilities?.().features;
        if (declared === undefined) return;
        for (const feature of ['deliver', 'wake', 'list_agents', 'health_check']) {
          assertEqual(declared[feature], true, `staticCapabilities().features.${feature}`);
        }
      }),
  ),
  dropCase(
    'deliver.fault-is-network',
    "a file-system fault (the agent's folder is a file) rejects with cause_kind 'network', which a caller may retry",
    (ctx) =>
      withConfigured(ctx, async ({ connector, dir }) => {
        await writeFile(join(dir, AGENT), 'not a folder');
        const error = (await assertRejects(
          () => connector.deliver(AGENT, augmentPayload(minimalMeta('file-drop'))),
          "deliver when the agent's folder is a file",
        )) as Record<string, unknown>;
        assertEqual(
          { name: error?.['name'], cause_kind: error?.['cause_kind'], agent_id: error?.['agent_id'] },
          { name: 'DeliveryFailedError', cause_kind: 'network', agent_id: AGENT },
          'the rejection',
        );
      }),
  ),
  dropCase(
    'deliver.unserialisable',
    'a payload that cannot be written as JSON (a BigInt in meta) is refused (client_validation) and nothing is written',
    (ctx) =>
      withConfigured(ctx, async ({ connector, files }) => {
        const meta = { ...minimalMeta('file-drop'), x_count: 10n } as unknown as DeliveryPayload['meta'];
        await assertClientRefusal(
          () => connector.deliver(AGENT, augmentPayload(meta)),
          'a payload holding a BigInt',
        );
        assertEqual(await files(), [], 'files after the refused delivery');
      }),
  ),
  dropCase(
    'agents.from-folders',
    'without an agent list, list_agents lists the safe, visible folders of the drop folder, sorted',
    (ctx) =>
      withDrop(
        (dir) => ctx.options.createWithoutAgents!(dir),
        async ({ connector, dir }) => {
          const visible = ['zed', 'ada', 'mia', 'bob', 'kai', 'lee'];
          for (const folder of [...visible, '.hidden', 'ctl\u0001']) await mkdir(join(dir, folder));
          await writeFile(join(dir, 'loose-file.json'), '{}');
          const agents = await mustResolve('list_agents', () => connector.list_agents());
          assertEqual(
            agents.map((agent) => agent.agent_id),
            [...visible].sort(),
            'agent ids listed',
          );
          await mustResolve('deliver to a new folder name', () =>
            connector.deliver('newcomer', augmentPayload(minimalMeta('file-drop'))),
          );
          assertEqual(
            (await connector.list_agents()).map((agent) => agent.agent_id),
            [...visible, 'newcomer'].sort(),
            'agent ids after a delivery made a folder',
          );
          for (const agent of ['', '..', 'a/b', 'ctl\u0001']) {
            await assertClientRefusal(
              () => connector.deliver(agent, augmentPayload(minimalMeta('file-drop'))),
              `deliver to agent ${formatValue(agent)} without an agent list`,
            );
          }
          assertEqual(
            (await readdir(dir)).filter((name) => name.endsWith('.json')),
            ['loose-file.json'],
            'files written at the top of the drop folder',
          );
          await rm(dir, { recursive: true });
          await assertRejects(() => connector.list_agents(), 'list_agents with the drop folder gone');
        },
      ),
    'agents-from-folders',
  ),
];

/**
 * The file-drop substrate's layout, as an agent reading the drop folder sees it: one
 * `<dir>/<agent>/<dispatch_id>.json` per delivery (`{ agent_id, session_id?, kind, payload }`) written
 * once — the same delivery again warns and leaves it, other content under its name is refused —, one
 * `wake-<id>.json` per wake (`{ agent_id, session_id?, kind: 'wake', context?, when? }`, `woken: false`),
 * unsafe or unconfigured names refused as `client_validation` with nothing written, a missing drop
 * folder not made again, `health_check` false without a writable folder, and the agents listed. Node
 * only: each case works in a fresh temporary folder.
 *
 * @example
 * ```ts
 * import { FileDropAgentConnector } from '@agentwire/agent-connector/file-drop';
 * import { fileDropSuite } from '@agentwire/conformance/node';
 * const suite = fileDropSuite({
 *   create: (dir, agentId) => new FileDropAgentConnector({ dir, agents: [agentId] }),
 *   createWithoutAgents: (dir) => new FileDropAgentConnector({ dir }),
 * });
 * ```
 */
export function fileDropSuite(options: FileDropSuiteOptions): ConformanceSuite<FileDropContext> {
  return {
    name: SUITE_NAME,
    version: FILE_DROP_SUITE_VERSION,
    description:
      'The file-drop layout: one file per delivery and per wake, written once, unsafe names refused, a missing ' +
      'folder not made again, health and the agents listed.',
    cases,
    needs: {
      'agents-from-folders': {
        provide: 'createWithoutAgents(dir) in the suite options: a connector that lists the folders of dir',
      },
    },
    setup: () => ({
      ctx: { options },
      capabilities: new Set(options.createWithoutAgents === undefined ? [] : ['agents-from-folders']),
    }),
  };
}
