import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileDropAgentConnector } from '@agentwire/agent-connector/file-drop';
import type { ConnectorUnderTest, ReceivedDelivery } from './agent-connector-suite.js';

/**
 * Lists what a file-drop folder received for `agentId`, as the agent-connector suite's `observe` takes
 * it: every JSON file under `<dir>/<agentId>/` (hidden files left out), decoded — a delivery file as its
 * `payload`, a wake file (its name starts `wake-`) as the whole document, since a drop folder cannot
 * interrupt anyone and a wake that writes its context there is a degraded one (`woken: false`), which
 * the suite counts as a delivery. Use it with your own file-drop connector, or with a substrate that
 * writes the same layout.
 *
 * @example
 * ```ts
 * import { observeFileDrop } from '@agentwire/conformance/node';
 * agentConnectorSuite({ create: () => ({ connector, agentId: 'perry', observe: observeFileDrop(dir, 'perry') }) });
 * ```
 */
export function observeFileDrop(dir: string, agentId: string): () => Promise<ReceivedDelivery[]> {
  return async () => {
    const folder = join(dir, agentId);
    const names = await readdir(folder).catch(() => []);
    const documents = await Promise.all(
      names
        .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
        .map(
          async (name) => JSON.parse(await readFile(join(folder, name), 'utf8')) as Record<string, unknown>,
        ),
    );
    return documents.map((document) => ({
      agent_id: String(document.agent_id),
      payload: document.kind === 'wake' ? document : document.payload,
    }));
  };
}

/**
 * The bundled file-drop connector in a fresh temporary folder, observed by reading its delivery files,
 * taken down by replacing its folder with a file, and removed on dispose. Node-only.
 */
export async function fileDropUnderTest(): Promise<ConnectorUnderTest> {
  const dir = await mkdtemp(join(tmpdir(), 'agentwire-conformance-'));
  const agentId = 'perry';
  const connector = new FileDropAgentConnector({ dir, agents: [agentId] });
  const observe = observeFileDrop(dir, agentId);
  // Down: the drop folder is moved away and a plain file takes its place, so nothing can be written
  // there (file permissions would not stop a process running as root).
  const away = `${dir}-away`;
  const setSubstrateAvailable = async (available: boolean): Promise<void> => {
    if (available) {
      await rm(dir, { force: true });
      await rename(away, dir);
    } else {
      await rename(dir, away);
      await writeFile(dir, 'the drop folder is gone');
    }
  };
  return {
    connector,
    agentId,
    sessions: true,
    deliverySessions: true,
    observe,
    // A drop folder cannot interrupt anyone: wakes are written as files and reported as woken: false.
    observeWakes: () => [],
    setSubstrateAvailable,
    dispose: async () => {
      await rm(dir, { recursive: true, force: true });
      await rm(away, { recursive: true, force: true });
    },
  };
}
