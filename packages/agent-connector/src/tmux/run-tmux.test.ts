import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentConnectorError } from '../contract/errors.js';
import { runTmux, tmuxArgument } from './tmux-agent-connector.js';
import { PrivateTmuxServer, realTmuxTitle, tmuxHere } from './tmux-test-support.js';

/** tmux's own reading of one argument of an argument array (cmd-parse.c, `cmd_parse_from_arguments`). */
function tmuxReads(argument: string): { readonly value: string; readonly endsCommand: boolean } {
  if (!argument.endsWith(';')) return { value: argument, endsCommand: false };
  const stripped = argument.slice(0, -1);
  if (stripped.endsWith('\\')) return { value: `${stripped.slice(0, -1)};`, endsCommand: false };
  return { value: stripped, endsCommand: true };
}

describe('tmuxArgument', () => {
  it.each([
    ['ls;', 'ls\\;'],
    [';', '\\;'],
    ['a\\;', 'a\\\\;'],
    ['a;b', 'a;b'],
    ['plain', 'plain'],
  ])('%j → %j', (argument, escaped) => {
    expect(tmuxArgument(argument)).toBe(escaped);
  });

  it('is read back by tmux unchanged and never ends a command (model)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(';', '\\', 'a', ' '), maxLength: 12 }), (argument) => {
        expect(tmuxReads(tmuxArgument(argument))).toEqual({ value: argument, endsCommand: false });
      }),
      { numRuns: 500 },
    );
  });
});

describe.skipIf(!tmuxHere.available)(realTmuxTitle('runTmux'), () => {
  let server: PrivateTmuxServer | undefined;

  afterEach(async () => {
    await server?.kill();
    server = undefined;
  });

  it('passes arguments ending in ; to tmux as written', async () => {
    server = new PrivateTmuxServer();
    await server.newSession('s1', 'cat');
    const invocation = { tmuxPath: 'tmux', serverArgs: ['-L', server.socketName], timeoutMs: 5000 };
    for (const value of ['x;', ';', 'y\\;', 'z\\\\;']) {
      await runTmux(invocation, ['set-option', '-s', '@agentwire-probe', value]);
      const { stdout } = await promisify(execFile)('tmux', [
        '-L',
        server.socketName,
        'show-options',
        '-s',
        '-v',
        '@agentwire-probe',
      ]);
      expect(stdout).toBe(`${value}\n`);
    }
  });

  it('rejects with the exit status and stderr of a failed command', async () => {
    server = new PrivateTmuxServer();
    await server.newSession('s1', 'cat');
    const error = await runTmux(
      { tmuxPath: 'tmux', serverArgs: ['-L', server.socketName], timeoutMs: 5000 },
      ['has-session', '-t', '=missing'],
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'tmux_command_failed',
      details: { subcommand: 'has-session', failure: 'exit', exit_code: 1 },
    });
    expect((error as AgentConnectorError).details.stderr).toMatch(/missing/);
    expect((error as Error).message).toMatch(/^tmux has-session exited with code 1: /);
  });
});

describe('runTmux without tmux', () => {
  it('rejects as a spawn failure when the binary is missing', async () => {
    const error = await runTmux({ tmuxPath: '/nonexistent/tmux', serverArgs: [], timeoutMs: 5000 }, [
      '-V',
    ]).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'tmux_command_failed',
      details: { failure: 'spawn', exit_code: null },
    });
    expect((error as Error).message).toBe('cannot run /nonexistent/tmux (ENOENT)');
  });
});
