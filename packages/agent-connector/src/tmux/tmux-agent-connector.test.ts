import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseStaticCapabilities } from '../contract/agent-connector.js';
import { type AgentConnectorError, DeliveryFailedError, NotImplementedError } from '../contract/errors.js';
import { TmuxAgentConnector, type TmuxAgentConnectorOptions } from './index.js';
import { typedText } from './tmux-agent-connector.js';
import {
  PrivateTmuxServer,
  realTmuxTitle,
  shellQuote,
  tmuxHere,
  waitForFile,
  waitForFileContent,
} from './tmux-test-support.js';

const NOW = 1_767_225_600_000;
const meta = {
  dispatch_id: 'd-1',
  sent_at: 1_767_225_599_000,
  origin: { skill_name: 'triage', trigger_kind: 'cron' as const },
};

function augment(content: string) {
  return { kind: 'augment' as const, content, meta };
}

let server: PrivateTmuxServer;
let dir: string;

beforeEach(async () => {
  server = new PrivateTmuxServer();
  dir = await mkdtemp(join(tmpdir(), 'tmux-connector-'));
});

afterEach(async () => {
  await server.kill();
  await rm(dir, { recursive: true, force: true });
});

function connector(
  sessions: TmuxAgentConnectorOptions['sessions'] = { perry: 's1' },
  options: Omit<TmuxAgentConnectorOptions, 'sessions'> = {},
) {
  return new TmuxAgentConnector({ sessions, socketName: server.socketName, now: () => NOW, ...options });
}

/** Starts session `name` whose pane appends every line it is given to a file; returns the file's path. */
async function recordingSession(name: string): Promise<string> {
  const file = join(dir, `${name}.txt`);
  await server.newSession(name, `cat > ${shellQuote(file)}`);
  return file;
}

/**
 * Starts session `name` whose pane is a raw terminal (no line editing, no echo, no signals) appending every
 * byte it receives to a file, so that keys arrive as the bytes they send; returns the file's path once the
 * terminal is raw.
 */
async function rawKeySession(name: string): Promise<string> {
  const file = join(dir, `${name}.keys`);
  await server.newSession(name, `stty raw -echo && exec cat > ${shellQuote(file)}`);
  expect(await waitForFile(file)).toBe(true);
  return file;
}

async function failure(promise: Promise<unknown>): Promise<DeliveryFailedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeliveryFailedError);
  return error as DeliveryFailedError;
}

describe.skipIf(!tmuxHere.available)(realTmuxTitle('TmuxAgentConnector.deliver'), () => {
  it('types an augment into the mapped pane, presses Enter and returns the receipt', async () => {
    const file = await recordingSession('s1');
    const receipt = await connector().deliver('perry', augment('build failed on main'));
    expect(receipt).toEqual({ delivered_at: NOW, delivery_id: `tmux:s1:0.0:${NOW}` });
    expect(await server.waitForPaneText('=s1:0.0', 'build failed on main')).toContain('build failed on main');
    expect(await waitForFileContent(file, 'build failed on main\n')).toBe('build failed on main\n');
  });

  it("types a template's prompt as written", async () => {
    const file = await recordingSession('s1');
    const receipt = await connector().deliver('perry', {
      kind: 'template',
      prompt: 'run the triage playbook',
      meta,
    });
    expect(receipt.delivery_id).toBe(`tmux:s1:0.0:${NOW}`);
    expect(await waitForFileContent(file, 'run the triage playbook\n')).toBe('run the triage playbook\n');
  });

  it('delivers a payload whose trigger_kind is unknown, as the reference runtime sends it', async () => {
    const file = await recordingSession('s1');
    const session = { ...meta, origin: { skill_name: 'triage', trigger_kind: 'session' } };
    const receipt = await connector().deliver('perry', {
      kind: 'augment',
      content: 'from an old runtime',
      meta: session,
    });
    expect(receipt).toEqual({ delivered_at: NOW, delivery_id: `tmux:s1:0.0:${NOW}` });
    expect(await waitForFileContent(file, 'from an old runtime\n')).toBe('from an old runtime\n');
  });

  it('routes agent@session to the agent and echoes the session', async () => {
    const file = await recordingSession('s1');
    const receipt = await connector().deliver('perry@kitchen', augment('hello'));
    expect(receipt).toEqual({ delivered_at: NOW, delivery_id: `tmux:s1:0.0:${NOW}`, session_id: 'kitchen' });
    expect(await waitForFileContent(file, 'hello\n')).toBe('hello\n');
  });

  it('types shell metacharacters literally: nothing goes through a shell', async () => {
    const file = await recordingSession('s1');
    const texts = [
      '$(rm -rf /)',
      '`id` && echo "double" \'single\'',
      'a; b | c > d',
      'ends with;',
      '\\;',
      ';',
    ];
    const c = connector();
    for (const text of texts) await c.deliver('perry', augment(text));
    const expected = texts.map((text) => `${text}\n`).join('');
    expect(await waitForFileContent(file, expected)).toBe(expected);
  });

  it('types Unicode byte for byte', async () => {
    const file = await recordingSession('s1');
    const text = 'café — 日本語 🎉 e\u0301 👩\u200d💻 \u{10ffff}';
    await connector().deliver('perry', augment(text));
    expect(await waitForFileContent(file, `${text}\n`)).toBe(`${text}\n`);
  });

  it('types line breaks as LF, drops trailing ones, and removes other control characters', async () => {
    const file = await recordingSession('s1');
    const receipt = await connector().deliver(
      'perry',
      augment('line one\r\nline\ttwo\rthree\u0003\u001b[31m\n\n'),
    );
    expect(receipt.warnings).toEqual([
      'removed 2 control character(s) that the pane would have taken as keystrokes',
    ]);
    const expected = 'line one\nline\ttwo\nthree[31m\n';
    expect(await waitForFileContent(file, expected)).toBe(expected);
  });

  it('types long text in pieces, and concurrent deliveries to one pane never interleave', async () => {
    const file = await recordingSession('s1');
    const lines = (tag: string) => Array.from({ length: 120 }, (_, i) => `${tag}${i} ${'é'.repeat(60)}`);
    const c = connector();
    await Promise.all([
      c.deliver('perry', augment(lines('a').join('\n'))),
      c.deliver('perry', augment(lines('b').join('\n'))),
    ]);
    const expected = [...lines('a'), ...lines('b')].map((line) => `${line}\n`).join('');
    expect(await waitForFileContent(file, expected)).toBe(expected);
  });

  it('reaches a window by name and a pane by index', async () => {
    await server.newSession('work', 'cat', 'agents');
    const file = join(dir, 'pane1.txt');
    await server.splitWindow('=work:=agents', `cat > ${shellQuote(file)}`);
    const receipt = await connector({ ada: { session: 'work', window: 'agents', pane: 1 } }).deliver(
      'ada',
      augment('to pane one'),
    );
    expect(receipt.delivery_id).toBe(`tmux:work:agents.1:${NOW}`);
    expect(await waitForFileContent(file, 'to pane one\n')).toBe('to pane one\n');
  });

  it('uses submitKey instead of Enter', async () => {
    const file = await recordingSession('s1');
    await connector({ perry: 's1' }, { submitKey: 'C-m' }).deliver('perry', augment('submitted'));
    expect(await waitForFileContent(file, 'submitted\n')).toBe('submitted\n');
  });

  it('fails as network with the tmux error when the session is missing, matching names exactly', async () => {
    const other = await recordingSession('s10');
    const error = await failure(connector({ perry: 's1' }).deliver('perry', augment('hi')));
    expect(error.cause_kind).toBe('network');
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(
      /^deliver to tmux pane s1:0\.0 failed: tmux send-keys exited with code 1: .*s1/,
    );
    expect(error.cause).toMatchObject({ code: 'tmux_command_failed' });
    expect((error.cause as AgentConnectorError).details.failure).toBe('exit');
    expect((error.cause as AgentConnectorError).details.exit_code).toBe(1);
    await connector({ other: 's10' }).deliver('other', augment('marker'));
    expect(await waitForFileContent(other, 'marker\n')).toBe('marker\n');
  });

  it('fails as network when no tmux server listens on the socket', async () => {
    const error = await failure(connector().deliver('perry', augment('hi')));
    expect(error.cause_kind).toBe('network');
    expect((error.cause as AgentConnectorError).details.stderr).not.toBe('');
  });

  it('fails as network when the window or pane is missing', async () => {
    await recordingSession('s1');
    for (const pane of [
      { session: 's1', window: 3 },
      { session: 's1', pane: 4 },
    ]) {
      const error = await failure(connector({ perry: pane }).deliver('perry', augment('hi')));
      expect(error.cause_kind).toBe('network');
    }
  });

  it('types any short text exactly as typedText prepares it (property, real tmux)', async () => {
    const file = await recordingSession('s1');
    const c = connector();
    let expected = '';
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 30 }), async (content) => {
        await c.deliver('perry', augment(content));
        const { text } = typedText(content);
        if (text !== '') expected += `${text}\n`;
        expect(await waitForFileContent(file, expected)).toBe(expected);
      }),
      { numRuns: 5 },
    );
  });
});

describe('TmuxAgentConnector.deliver without a tmux server', () => {
  it('returns a :noop receipt for empty text without calling tmux', async () => {
    const c = connector({ perry: 's1' }, { tmuxPath: '/nonexistent/tmux' });
    for (const content of ['', '\n\r\n', '\u0007']) {
      const receipt = await c.deliver('perry@kitchen', augment(content));
      expect(receipt.delivery_id).toBe('tmux:s1:0.0:noop');
      expect(receipt.session_id).toBe('kitchen');
      expect(receipt.warnings).toContain('empty text: nothing typed into the pane');
    }
  });

  it('accepts an unknown trigger_kind without a tmux server when there is nothing to type', async () => {
    const c = connector({ perry: 's1' }, { tmuxPath: '/nonexistent/tmux' });
    const session = { ...meta, origin: { skill_name: 'triage', trigger_kind: 'session' } };
    const receipt = await c.deliver('perry', { kind: 'augment', content: '', meta: session });
    expect(receipt.delivery_id).toBe('tmux:s1:0.0:noop');
  });

  it('refuses an unknown agent as client_validation without calling tmux', async () => {
    const c = connector({ perry: 's1', ada: 's2' }, { tmuxPath: '/nonexistent/tmux' });
    const error = await failure(c.deliver('alice@kitchen', augment('hi')));
    expect(error.cause_kind).toBe('client_validation');
    expect(error.http_status).toBeNull();
    expect(error.agent_id).toBe('alice@kitchen');
    expect(error.cause).toBeUndefined();
    expect(error.message).toBe("Agent 'alice' is not configured. Wired agents: perry, ada.");
  });

  it('fails as client_validation when the tmux binary is missing', async () => {
    const error = await failure(
      connector({ perry: 's1' }, { tmuxPath: '/nonexistent/tmux' }).deliver('perry', augment('hi')),
    );
    expect(error.cause_kind).toBe('client_validation');
    expect(error.cause).toMatchObject({ code: 'tmux_command_failed' });
    expect((error.cause as AgentConnectorError).details.failure).toBe('spawn');
    expect(error.message).toContain('ENOENT');
  });

  it('fails as timeout when tmux does not finish within timeoutMs', async () => {
    const stuck = join(dir, 'stuck-tmux');
    await writeFile(stuck, '#!/bin/sh\nexec sleep 30\n');
    await chmod(stuck, 0o755);
    const error = await failure(
      connector({ perry: 's1' }, { tmuxPath: stuck, timeoutMs: 100 }).deliver('perry', augment('hi')),
    );
    expect(error.cause_kind).toBe('timeout');
    expect((error.cause as AgentConnectorError).details.failure).toBe('timeout');
  });

  it('validates the address and the payload before anything else', async () => {
    const c = connector();
    await expect(c.deliver(42 as unknown as string, augment('hi'))).rejects.toMatchObject({
      code: 'invalid_agent_address',
    });
    await expect(c.deliver('perry', { kind: 'binary', meta } as never)).rejects.toMatchObject({
      code: 'invalid_contract_value',
    });
    const numericKind = { ...meta, origin: { skill_name: 'triage', trigger_kind: 7 } };
    await expect(
      c.deliver('perry', { kind: 'augment', content: 'hi', meta: numericKind } as never),
    ).rejects.toMatchObject({ code: 'invalid_contract_value' });
  });
});

describe.skipIf(!tmuxHere.available)(realTmuxTitle('TmuxAgentConnector.wake'), () => {
  it('types the context, presses Enter, reports woken: true and echoes the session (opts first)', async () => {
    const file = await recordingSession('s1');
    const receipt = await connector().wake('perry@kitchen', { context: 'wake up: build failed' });
    expect(receipt).toEqual({ woken_at: NOW, woken: true, session_id: 'kitchen' });
    expect(await waitForFileContent(file, 'wake up: build failed\n')).toBe('wake up: build failed\n');
    const preferred = await connector().wake('perry@kitchen', { context: 'hi', session_id: 'tab-3' });
    expect(preferred.session_id).toBe('tab-3');
    expect(await waitForFileContent(file, 'wake up: build failed\nhi\n')).toBe('wake up: build failed\nhi\n');
  });

  it('types the context literally, then presses wakeKeys as keys, in that order', async () => {
    const file = await rawKeySession('s1');
    const c = connector({ perry: 's1' }, { wakeKeys: ['C-c', 'Escape', 'Up', 'Enter'] });
    const receipt = await c.wake('perry', { context: 'look: C-c\nnow' });
    expect(receipt).toEqual({ woken_at: NOW, woken: true });
    const expected = 'look: C-c\nnow\u0003\u001b\u001b[A\r';
    expect(await waitForFileContent(file, expected)).toBe(expected);
  });

  it('presses only the wake keys without a context', async () => {
    const file = await rawKeySession('s1');
    const c = connector({ perry: 's1' }, { wakeKeys: ['Escape', 'Tab'] });
    expect(await c.wake('perry')).toEqual({ woken_at: NOW, woken: true });
    expect(await c.wake('perry', {})).toEqual({ woken_at: NOW, woken: true });
    expect(await waitForFileContent(file, '\u001b\t\u001b\t')).toBe('\u001b\t\u001b\t');
  });

  it('defaults wakeKeys to submitKey', async () => {
    const file = await rawKeySession('s1');
    await connector({ perry: 's1' }, { submitKey: 'Tab' }).wake('perry', { context: 'ctx' });
    await connector({ perry: 's1' }).wake('perry');
    expect(await waitForFileContent(file, 'ctx\t\r')).toBe('ctx\t\r');
  });

  it('sends only the keys for a context that is empty once prepared, and says so', async () => {
    const file = await rawKeySession('s1');
    const receipt = await connector().wake('perry', { context: '\u001b\n' });
    expect(receipt).toEqual({
      woken_at: NOW,
      woken: true,
      warnings: [
        'removed 1 control character(s) that the pane would have taken as keystrokes',
        'empty context: only the wake keys were sent',
      ],
    });
    expect(await waitForFileContent(file, '\r')).toBe('\r');
  });

  it('wakes a scheduled wake at once and says so', async () => {
    const file = await recordingSession('s1');
    const receipt = await connector().wake('perry', { context: 'later', when: NOW + 60_000 });
    expect(receipt).toEqual({
      woken_at: NOW,
      woken: true,
      warnings: ['scheduled wake not supported by tmux: woken immediately'],
    });
    expect(await waitForFileContent(file, 'later\n')).toBe('later\n');
  });

  it('reports woken: false and sends nothing when the session is missing, matching names exactly', async () => {
    const other = await rawKeySession('s10');
    const receipt = await connector({ perry: 's1' }).wake('perry@kitchen', { context: 'hi' });
    expect(receipt).toEqual({
      woken_at: NOW,
      woken: false,
      session_id: 'kitchen',
      warnings: [
        "tmux pane s1:0.0 not found (can't find session: s1): the agent was not woken and the context was not delivered",
      ],
    });
    await connector({ other: 's10' }).wake('other', { context: 'marker' });
    expect(await waitForFileContent(other, 'marker\r')).toBe('marker\r');
  });

  it('reports woken: false and sends nothing when the window or pane is missing', async () => {
    const file = await rawKeySession('s1');
    for (const [pane, label] of [
      [{ session: 's1', window: 3 }, 's1:3.0'],
      [{ session: 's1', window: 'agents' }, 's1:agents.0'],
      [{ session: 's1', pane: 4 }, 's1:0.4'],
    ] as const) {
      const receipt = await connector({ perry: pane }).wake('perry', { context: 'hi' });
      expect(receipt.woken).toBe(false);
      expect(receipt.warnings).toHaveLength(1);
      expect(receipt.warnings?.[0]).toMatch(
        new RegExp(
          `^tmux pane ${label} not found \\(can't find (window|pane): .+\\): the agent was not woken and the context was not delivered$`,
        ),
      );
    }
    await connector().wake('perry', { context: 'marker' });
    expect(await waitForFileContent(file, 'marker\r')).toBe('marker\r');
  });

  it('reports woken: false when no tmux server listens on the socket', async () => {
    const withContext = await connector().wake('perry', { context: 'hi' });
    expect(withContext.woken).toBe(false);
    expect(withContext.warnings?.[0]).toMatch(
      /^tmux pane s1:0\.0 not found \(.+\): the agent was not woken and the context was not delivered$/,
    );
    const bare = await connector().wake('perry');
    expect(bare).toEqual({
      woken_at: NOW,
      woken: false,
      warnings: [expect.stringMatching(/^tmux pane s1:0\.0 not found \(.+\): the agent was not woken$/)],
    });
  });
});

describe('TmuxAgentConnector.wake without a tmux server', () => {
  it('throws client_validation for an unknown agent, without calling tmux', async () => {
    const c = connector({ perry: 's1' }, { tmuxPath: '/nonexistent/tmux' });
    const error = await failure(c.wake('alice@kitchen', { context: 'hi' }));
    expect(error.cause_kind).toBe('client_validation');
    expect(error.agent_id).toBe('alice@kitchen');
    expect(error.cause).toBeUndefined();
  });

  it('throws client_validation when the tmux binary is missing, with or without a context', async () => {
    const c = connector({ perry: 's1' }, { tmuxPath: '/nonexistent/tmux' });
    for (const opts of [undefined, { context: 'hi' }]) {
      const error = await failure(c.wake('perry', opts));
      expect(error.cause_kind).toBe('client_validation');
      expect(error.message).toMatch(
        /^wake to tmux pane s1:0\.0 failed: cannot run \/nonexistent\/tmux \(ENOENT\)$/,
      );
      expect((error.cause as AgentConnectorError).details.failure).toBe('spawn');
    }
  });

  it('throws timeout when tmux does not finish within timeoutMs', async () => {
    const stuck = join(dir, 'stuck-tmux');
    await writeFile(stuck, '#!/bin/sh\nexec sleep 30\n');
    await chmod(stuck, 0o755);
    const error = await failure(
      connector({ perry: 's1' }, { tmuxPath: stuck, timeoutMs: 100 }).wake('perry', { context: 'hi' }),
    );
    expect(error.cause_kind).toBe('timeout');
    expect((error.cause as AgentConnectorError).details.failure).toBe('timeout');
  });

  it('validates opts', async () => {
    await expect(connector().wake('perry', { when: -1 })).rejects.toMatchObject({
      code: 'invalid_contract_value',
    });
    await expect(connector().wake('perry', { session_id: 3 } as never)).rejects.toMatchObject({
      code: 'invalid_contract_value',
    });
  });
});

describe.skipIf(!tmuxHere.available)(realTmuxTitle('TmuxAgentConnector status and health'), () => {
  it("reports 'active' when the agent's session exists, 'unknown' otherwise", async () => {
    await recordingSession('s1');
    await recordingSession('s10');
    const c = connector({ perry: 's1', ada: 's', gone: 'nope' });
    expect(await c.agent_status('perry')).toBe('active');
    expect(await c.agent_status('perry@kitchen')).toBe('active');
    expect(await c.agent_status('ada')).toBe('unknown');
    expect(await c.agent_status('gone')).toBe('unknown');
    expect(await c.agent_status('alice')).toBe('unknown');
  });
});

describe('TmuxAgentConnector status, health and listing', () => {
  it(`is healthy exactly when tmux runs here (this machine: ${tmuxHere.available ? `found ${tmuxHere.detail}` : `tmux not found: ${tmuxHere.detail}`})`, async () => {
    expect(await new TmuxAgentConnector({ sessions: {} }).health_check()).toBe(tmuxHere.available);
  });

  it("is unhealthy and reports 'unknown' when the tmux binary is missing", async () => {
    const c = connector({ perry: 's1' }, { tmuxPath: '/nonexistent/tmux' });
    expect(await c.health_check()).toBe(false);
    expect(await c.agent_status('perry')).toBe('unknown');
  });

  it('lists the configured agents in order with their capabilities', async () => {
    expect(await connector({ perry: 's1', ada: { session: 's2', pane: 1 } }).list_agents()).toEqual([
      { agent_id: 'perry', capabilities: ['deliver', 'wake', 'augment', 'template'] },
      { agent_id: 'ada', capabilities: ['deliver', 'wake', 'augment', 'template'] },
    ]);
  });

  it('declares valid static capabilities and does not implement request_response', async () => {
    expect(parseStaticCapabilities(TmuxAgentConnector.staticCapabilities())).toEqual({
      connector_type: 'agent_connector',
      implementation: 'TmuxAgentConnector',
      contract_version: '1.0.0',
      features: { deliver: true, wake: true, list_agents: true, agent_status: true, health_check: true },
    });
    await expect(connector().request_response()).rejects.toThrow(NotImplementedError);
  });
});

describe('TmuxAgentConnector options', () => {
  const invalid: readonly [string, unknown, string][] = [
    ['no options', undefined, 'options'],
    ['sessions not an object', { sessions: ['s1'] }, 'sessions'],
    ['empty agent id', { sessions: { '': 's1' } }, 'sessions[""]'],
    ['agent id with @', { sessions: { 'a@b': 's1' } }, 'sessions["a@b"]'],
    ['empty session', { sessions: { a: '' } }, 'sessions["a"]'],
    ['session with :', { sessions: { a: 's:1' } }, 'sessions["a"]'],
    ['session with .', { sessions: { a: { session: 's.1' } } }, 'sessions["a"].session'],
    ['session with a newline', { sessions: { a: 's\n1' } }, 'sessions["a"]'],
    ['entry of the wrong type', { sessions: { a: 3 } }, 'sessions["a"]'],
    ['negative window', { sessions: { a: { session: 's', window: -1 } } }, 'sessions["a"].window'],
    ['window name with .', { sessions: { a: { session: 's', window: 'x.y' } } }, 'sessions["a"].window'],
    ['fractional pane', { sessions: { a: { session: 's', pane: 1.5 } } }, 'sessions["a"].pane'],
    ['named pane', { sessions: { a: { session: 's', pane: 'top' } } }, 'sessions["a"].pane'],
    ['empty tmuxPath', { sessions: {}, tmuxPath: '' }, 'tmuxPath'],
    ['both sockets', { sessions: {}, socketName: 'x', socketPath: '/tmp/x' }, 'socketPath'],
    ['zero timeout', { sessions: {}, timeoutMs: 0 }, 'timeoutMs'],
    ['fractional timeout', { sessions: {}, timeoutMs: 1.5 }, 'timeoutMs'],
    ['now not a function', { sessions: {}, now: 5 }, 'now'],
    ['submitKey with a space', { sessions: {}, submitKey: 'C m' }, 'submitKey'],
    ['empty wakeKeys', { sessions: {}, wakeKeys: [] }, 'wakeKeys'],
    ['wakeKeys not an array', { sessions: {}, wakeKeys: 'Enter' }, 'wakeKeys'],
    ['an empty wake key', { sessions: {}, wakeKeys: ['Escape', ''] }, 'wakeKeys[1]'],
    ['a wake key with a space', { sessions: {}, wakeKeys: ['C m'] }, 'wakeKeys[0]'],
    ['a wake key of the wrong type', { sessions: {}, wakeKeys: [13] }, 'wakeKeys[0]'],
    ['a hole in wakeKeys', { sessions: {}, wakeKeys: new Array<string>(2).fill('Enter', 1) }, 'wakeKeys[0]'],
  ];

  it.each(invalid)('refuses %s', (_, options, setting) => {
    let error: unknown;
    try {
      new TmuxAgentConnector(options as TmuxAgentConnectorOptions);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'invalid_tmux_config', path: setting });
  });

  it('accepts indexes as numbers or digit strings and window names', async () => {
    const c = new TmuxAgentConnector({
      sessions: { a: 's', b: { session: 's', window: '2', pane: '3' }, c: { session: 's', window: 'main' } },
      socketPath: '/tmp/agentwire-unused.sock',
      timeoutMs: 1,
    });
    expect((await c.list_agents()).map((d) => d.agent_id)).toEqual(['a', 'b', 'c']);
  });
});
