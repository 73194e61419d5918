import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TmuxAgentConnector } from '@agentwire/agent-connector/tmux';
import type { ConnectorUnderTest, ReceivedWake } from './agent-connector-suite.js';

const run = promisify(execFile);

/** Each tmux command's limit for the connector under test, and so how long a stalled call may take. */
const TMUX_TIMEOUT_MS = 2000;
/** How long `observeWakes` waits for the pane to take in what was typed before it. */
const DRAIN_LIMIT_MS = 5000;

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
 * The bundled tmux connector typing into the pane of a private tmux server (its socket in a fresh
 * temporary folder, no user configuration), killed and removed on dispose. The pane runs a reader
 * that writes each line it is given to a file, and the connector starts tmux through a wrapper script,
 * so the suite can observe and fault the substrate:
 * - `observeWakes`: each line the pane took in (a wake's context, entered by its wake keys; an empty
 *   line, a wake without one). A wake carries no session into a pane, so `sessionsEchoedOnly` is set.
 * - `setSubstrateAvailable(false)`: the wrapper is made non-executable, so tmux cannot be started.
 * - `setSubstrateStalled(true)`: the wrapper sleeps instead of running tmux, as a hung tmux does.
 *
 * Deliveries are not observed: a pane receives text, not the payload and its `meta`. Node-only, and it
 * needs the `tmux` binary: not exported from the package entry.
 */
export async function tmuxUnderTest(): Promise<ConnectorUnderTest> {
  const dir = await mkdtemp(join(tmpdir(), 'agentwire-conformance-tmux-'));
  const socketPath = join(dir, 'tmux.sock');
  const received = join(dir, 'received.log');
  const stalledFlag = join(dir, 'stalled');
  const reader = join(dir, 'reader.sh');
  const wrapper = join(dir, 'tmux');
  await writeFile(received, '');
  await writeFile(reader, `while IFS= read -r line; do printf '%s\\n' "$line" >> '${received}'; done\n`);
  await writeFile(
    wrapper,
    `#!/bin/sh\nif [ -e '${stalledFlag}' ]; then exec sleep 60; fi\nexec tmux "$@"\n`,
    { mode: 0o755 },
  );
  const server = ['-S', socketPath, '-f', '/dev/null'];
  await run('tmux', [
    ...server,
    'new-session',
    '-d',
    '-s',
    'agents',
    '-x',
    '200',
    '-y',
    '50',
    `sh '${reader}'`,
  ]);
  const agentId = 'perry';
  const connector = new TmuxAgentConnector({
    sessions: { [agentId]: 'agents' },
    socketPath,
    tmuxPath: wrapper,
    timeoutMs: TMUX_TIMEOUT_MS,
  });

  /** The lines the pane took in, once it has taken in everything typed so far. */
  const linesReceived = async (): Promise<string[]> => {
    const marker = `drained ${randomUUID()}`;
    await run('tmux', [...server, 'send-keys', '-t', 'agents', '-l', '--', marker]);
    await run('tmux', [...server, 'send-keys', '-t', 'agents', 'Enter']);
    const deadline = Date.now() + DRAIN_LIMIT_MS;
    for (;;) {
      // Each line ends in a newline; an empty line is a wake without context.
      const lines = (await readFile(received, 'utf8')).split('\n').slice(0, -1);
      if (lines.includes(marker)) return lines.filter((line) => !line.startsWith('drained '));
      if (Date.now() > deadline) throw new Error(`the tmux pane took in nothing within ${DRAIN_LIMIT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  return {
    connector,
    agentId,
    sessions: true,
    sessionsEchoedOnly: true,
    deliverySessions: true,
    observeWakes: async () =>
      (await linesReceived()).map(
        (context): ReceivedWake => (context === '' ? { agent_id: agentId } : { agent_id: agentId, context }),
      ),
    setSubstrateAvailable: (available) => chmod(wrapper, available ? 0o755 : 0o644),
    setSubstrateStalled: async (stalled) => {
      if (stalled) await writeFile(stalledFlag, '');
      else await rm(stalledFlag, { force: true });
    },
    stallTimeoutMs: TMUX_TIMEOUT_MS,
    dispose: async () => {
      await run('tmux', [...server, 'kill-server']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
