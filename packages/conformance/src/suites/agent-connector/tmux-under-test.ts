import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TmuxAgentConnector } from '@agentwire/agent-connector/tmux';
import type { ConnectorUnderTest } from './agent-connector-suite.js';

const run = promisify(execFile);

/** Whether a `tmux` binary runs here (`tmux -V`); the tmux connector can only be checked where it does. */
export function tmuxAvailable(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * The bundled tmux connector typing into a `cat` pane of a private tmux server (its socket in a fresh
 * temporary folder, no user configuration), killed and removed on dispose. Deliveries are not observed: a pane shows text, not payloads.
 * Node-only, and it needs the `tmux` binary: not exported from the package entry.
 */
export async function tmuxUnderTest(): Promise<ConnectorUnderTest> {
  const dir = await mkdtemp(join(tmpdir(), 'agentwire-conformance-tmux-'));
  const socketPath = join(dir, 'tmux.sock');
  const server = ['-S', socketPath, '-f', '/dev/null'];
  await run('tmux', [...server, 'new-session', '-d', '-s', 'agents', '-x', '200', '-y', '50', 'cat']);
  const agentId = 'perry';
  const connector = new TmuxAgentConnector({ sessions: { [agentId]: 'agents' }, socketPath });
  return {
    connector,
    agentId,
    sessions: true,
    deliverySessions: true,
    dispose: async () => {
      await run('tmux', [...server, 'kill-server']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
