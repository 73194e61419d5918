import { afterEach, describe, expect, it } from 'vitest';
import { probePane } from './tmux-agent-connector.js';
import { PrivateTmuxServer, realTmuxTitle, tmuxHere } from './tmux-test-support.js';

describe.skipIf(!tmuxHere.available)(realTmuxTitle('probePane'), () => {
  let server: PrivateTmuxServer | undefined;

  afterEach(async () => {
    await server?.kill();
    server = undefined;
  });

  it('finds an existing pane and returns the tmux error for a missing one, matched exactly', async () => {
    server = new PrivateTmuxServer();
    await server.newSession('s10', 'cat', 'main');
    const invocation = { tmuxPath: 'tmux', serverArgs: ['-L', server.socketName], timeoutMs: 5000 };
    expect(await probePane(invocation, '=s10:0.0')).toBeUndefined();
    expect(await probePane(invocation, '=s10:=main.0')).toBeUndefined();
    for (const [target, stderr] of [
      ['=s1:0.0', "can't find session: s1"],
      ['=s10:3.0', "can't find window: 3"],
      ['=s10:=mai.0', "can't find window: mai"],
      ['=s10:0.4', "can't find pane: 4"],
    ]) {
      const missing = await probePane(invocation, target as string);
      expect(missing).toMatchObject({
        code: 'tmux_command_failed',
        details: { subcommand: 'capture-pane', failure: 'exit', stderr },
      });
    }
  });
});

describe('probePane without tmux', () => {
  it('throws when tmux cannot be started', async () => {
    const error = await probePane(
      { tmuxPath: '/nonexistent/tmux', serverArgs: [], timeoutMs: 5000 },
      '=s:0.0',
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'tmux_command_failed', details: { failure: 'spawn' } });
  });
});
