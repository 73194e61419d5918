import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileDropAgentConnector } from '@agentwire/agent-connector/file-drop';
import type { ConnectorUnderTest, ReceivedDelivery } from './agent-connector-suite.js';

/**
 * The bundled file-drop connector in a fresh temporary folder, observed by reading its delivery files and
 * removed on dispose. Node-only: not exported from the package entry.
 */
export async function fileDropUnderTest(): Promise<ConnectorUnderTest> {
  const dir = await mkdtemp(join(tmpdir(), 'agentwire-conformance-'));
  const agentId = 'perry';
  const connector = new FileDropAgentConnector({ dir, agents: [agentId] });
  const observe = async (): Promise<ReceivedDelivery[]> => {
    const folder = join(dir, agentId);
    const names = await readdir(folder).catch(() => []);
    const documents = await Promise.all(
      names
        .filter((name) => name.endsWith('.json') && !name.startsWith('wake-') && !name.startsWith('.'))
        .map(
          async (name) => JSON.parse(await readFile(join(folder, name), 'utf8')) as Record<string, unknown>,
        ),
    );
    return documents.map((document) => ({ agent_id: String(document.agent_id), payload: document.payload }));
  };
  return {
    connector,
    agentId,
    sessions: true,
    deliverySessions: true,
    observe,
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
