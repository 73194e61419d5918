import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { access, readFile, rm } from 'node:fs/promises';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Longest a test waits for typed text to show up. */
const WAIT_LIMIT_MS = 5000;

/** Whether the `tmux` binary runs on this machine (`tmux -V`), and its version or why it does not. */
export interface TmuxProbe {
  readonly available: boolean;
  /** `tmux -V`'s output (`tmux 3.3a`), or the error that kept it from running. */
  readonly detail: string;
}

/** The tmux on this machine, probed once when this module loads; tests that drive tmux skip without it. */
export const tmuxHere: TmuxProbe = probeTmux();

/**
 * The title of a `describe` block that drives real tmux: says which tmux ran it, or why it was skipped.
 *
 * @example
 * describe.skipIf(!tmuxHere.available)(realTmuxTitle('wake'), () => { … });
 * // 'wake (real tmux 3.3a)' or 'wake (SKIPPED: tmux cannot run on this machine: spawnSync tmux ENOENT)'
 */
export function realTmuxTitle(title: string): string {
  return tmuxHere.available
    ? `${title} (real ${tmuxHere.detail})`
    : `${title} (SKIPPED: tmux cannot run on this machine: ${tmuxHere.detail})`;
}

function probeTmux(): TmuxProbe {
  try {
    const version = execFileSync('tmux', ['-V'], { encoding: 'utf8', timeout: 5000, stdio: 'pipe' });
    return { available: true, detail: version.trim() };
  } catch (error) {
    return { available: false, detail: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * A private tmux server for tests, on its own socket name (`tmux -L`), started without any user
 * configuration. Requires the real `tmux` binary (`newSession` rejects without it): use it only in blocks
 * skipped unless {@link tmuxHere} is available. `kill()` works either way.
 */
export class PrivateTmuxServer {
  readonly socketName = `agentwire-test-${process.pid}-${randomUUID().slice(0, 8)}`;
  #socketPath: string | undefined;

  /** Starts a detached session (window 0, pane 0) running `command` through the shell. */
  async newSession(name: string, command: string, windowName?: string): Promise<void> {
    const windowArgs = windowName === undefined ? [] : ['-n', windowName];
    await this.#tmux(['new-session', '-d', '-s', name, ...windowArgs, '-x', '200', '-y', '50', command]);
    this.#socketPath ??= (await this.#tmux(['display-message', '-p', '#{socket_path}'])).stdout.trim();
  }

  /** Splits the window `target` and runs `command` in the new pane. */
  async splitWindow(target: string, command: string): Promise<void> {
    await this.#tmux(['split-window', '-d', '-t', target, command]);
  }

  /** The visible text of pane `target`. */
  async capture(target: string): Promise<string> {
    return (await this.#tmux(['capture-pane', '-p', '-t', target])).stdout;
  }

  /** Waits until pane `target` shows `text` (or the wait limit passes) and returns what it shows. */
  async waitForPaneText(target: string, text: string): Promise<string> {
    return poll(
      () => this.capture(target),
      (shown) => shown.includes(text),
    );
  }

  /**
   * Stops the server and every session in it, and removes its socket file (tmux leaves it behind); a
   * server that is already gone is fine.
   */
  async kill(): Promise<void> {
    await this.#tmux(['kill-server']).catch(() => undefined);
    if (this.#socketPath !== undefined) await rm(this.#socketPath, { force: true });
  }

  #tmux(args: readonly string[]): Promise<{ stdout: string }> {
    return run('tmux', ['-f', '/dev/null', '-L', this.socketName, ...args], { encoding: 'utf8' });
  }
}

/** Shell-quotes `value` for a tmux session command. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** Waits until a file exists at `path` (or the wait limit passes); resolves whether it does. */
export async function waitForFile(path: string): Promise<boolean> {
  const found = await poll(
    () =>
      access(path).then(
        () => 'found',
        () => '',
      ),
    (state) => state === 'found',
  );
  return found === 'found';
}

/**
 * Waits until the file at `path` holds exactly `expected` (or the wait limit passes) and returns its
 * content; a missing file reads as `''`.
 */
export function waitForFileContent(path: string, expected: string): Promise<string> {
  return poll(
    () => readFile(path, 'utf8').catch(() => ''),
    (content) => content === expected,
  );
}

async function poll(read: () => Promise<string>, done: (value: string) => boolean): Promise<string> {
  const deadline = Date.now() + WAIT_LIMIT_MS;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() >= deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
