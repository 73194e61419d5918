import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseStaticCapabilities } from '../contract/agent-connector.js';
import { type AgentConnectorError, DeliveryFailedError, NotImplementedError } from '../contract/errors.js';
import { FileDropAgentConnector } from './index.js';

const NOW = 1_767_225_600_000;
const meta = {
  dispatch_id: 'd-1',
  sent_at: 1_767_225_599_000,
  origin: { skill_name: 'triage', trigger_kind: 'cron' as const },
};
const augment = { kind: 'augment' as const, content: 'build failed — café', meta };

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'file-drop-'));
});

afterEach(async () => {
  await chmod(dir, 0o755).catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

function connector(agents?: readonly string[]) {
  return new FileDropAgentConnector({ dir, now: () => NOW, ...(agents === undefined ? {} : { agents }) });
}

async function expectRefusal(promise: Promise<unknown>, cause_kind: string, message: RegExp) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeliveryFailedError);
  expect((error as DeliveryFailedError).cause_kind).toBe(cause_kind);
  expect((error as Error).message).toMatch(message);
  return error as DeliveryFailedError;
}

describe('FileDropAgentConnector.deliver', () => {
  it('writes <dir>/<agent>/<dispatch_id>.json with the documented JSON and returns a receipt', async () => {
    const receipt = await connector().deliver('perry', augment);
    expect(receipt).toEqual({ delivered_at: NOW, delivery_id: 'perry/d-1.json' });
    expect(await readdir(join(dir, 'perry'))).toEqual(['d-1.json']);
    const bytes = await readFile(join(dir, 'perry', 'd-1.json'), 'utf8');
    expect(bytes).toBe(
      [
        '{',
        '  "agent_id": "perry",',
        '  "kind": "augment",',
        '  "payload": {',
        '    "kind": "augment",',
        '    "content": "build failed — café",',
        '    "meta": {',
        '      "dispatch_id": "d-1",',
        '      "sent_at": 1767225599000,',
        '      "origin": {',
        '        "skill_name": "triage",',
        '        "trigger_kind": "cron"',
        '      }',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('passes template payloads and unknown meta keys through untouched', async () => {
    const payload = {
      kind: 'template' as const,
      prompt: 'do it',
      meta: { ...meta, dispatch_id: 'd-2', correlation_id: 'c-9', x_custom: { a: [1] } },
    };
    await connector().deliver('alice', payload);
    const document = JSON.parse(await readFile(join(dir, 'alice', 'd-2.json'), 'utf8'));
    expect(document).toEqual({ agent_id: 'alice', kind: 'template', payload });
  });

  it('writes an unknown trigger_kind through unchanged, as the reference runtime sends it', async () => {
    const payload = {
      ...augment,
      meta: { ...meta, origin: { skill_name: 'triage', trigger_kind: 'session' } },
    };
    const receipt = await connector().deliver('perry', payload);
    expect(receipt).toEqual({ delivered_at: NOW, delivery_id: 'perry/d-1.json' });
    const bytes = await readFile(join(dir, 'perry', 'd-1.json'), 'utf8');
    expect(bytes).toContain('        "trigger_kind": "session"\n');
    expect(JSON.parse(bytes)).toEqual({ agent_id: 'perry', kind: 'augment', payload });
  });

  it('maps agent@session to the agent folder and echoes session_id in file and receipt', async () => {
    const receipt = await connector().deliver('perry@kitchen@tab', augment);
    expect(receipt).toEqual({ delivered_at: NOW, delivery_id: 'perry/d-1.json', session_id: 'kitchen@tab' });
    const document = JSON.parse(await readFile(join(dir, 'perry', 'd-1.json'), 'utf8'));
    expect(document.agent_id).toBe('perry@kitchen@tab');
    expect(document.session_id).toBe('kitchen@tab');
    expect(Object.keys(document)).toEqual(['agent_id', 'session_id', 'kind', 'payload']);
  });

  it('treats an empty session (alice@) as no session', async () => {
    const receipt = await connector().deliver('alice@', augment);
    expect(receipt).toEqual({ delivered_at: NOW, delivery_id: 'alice/d-1.json' });
  });

  it('is idempotent: a retry with identical content is a no-op with a warning', async () => {
    const drop = connector();
    await drop.deliver('perry', augment);
    const path = join(dir, 'perry', 'd-1.json');
    const sentinel = new Date(2000, 0, 1);
    await utimes(path, sentinel, sentinel);
    const receipt = await drop.deliver('perry', augment);
    expect(receipt.warnings).toEqual([
      'duplicate dispatch_id: perry/d-1.json already holds this delivery; not rewritten',
    ]);
    expect((await stat(path)).mtimeMs).toBe(sentinel.getTime());
    expect(await readdir(join(dir, 'perry'))).toEqual(['d-1.json']);
  });

  it('refuses different content for the same dispatch_id and keeps the first file', async () => {
    const drop = connector();
    await drop.deliver('perry', augment);
    const before = await readFile(join(dir, 'perry', 'd-1.json'), 'utf8');
    const error = await expectRefusal(
      drop.deliver('perry', { ...augment, content: 'other' }),
      'client_validation',
      /different dispatch file already exists/,
    );
    expect(error.cause).toMatchObject({ code: 'dispatch_id_conflict' });
    expect((error.cause as AgentConnectorError).details.file).toBe(join(dir, 'perry', 'd-1.json'));
    expect(error.retryable).toBe(false);
    expect(await readFile(join(dir, 'perry', 'd-1.json'), 'utf8')).toBe(before);
    expect(await readdir(join(dir, 'perry'))).toEqual(['d-1.json']);
  });

  it.each([
    ['', /agent folder name "" is empty/],
    ['..', /is '\.\.'/],
    ['.', /is '\.'/],
    ['../etc', /path separator/],
    ['a/b', /path separator/],
    ['a\\b', /path separator/],
    ['a\u0000b', /control character/],
    ['@session', /is empty/],
    ['..@s', /is '\.\.'/],
    ['x'.repeat(256), /longer than 255/],
  ])('refuses the unsafe agent id %j without touching the directory', async (agent_id, message) => {
    await expectRefusal(connector().deliver(agent_id, augment), 'client_validation', message);
    await expectRefusal(connector().wake(agent_id, { context: 'c' }), 'client_validation', message);
    expect(await readdir(dir)).toEqual([]);
  });

  it.each([
    ['..', /is '\.\.'/],
    ['a/b', /path separator/],
    ['../../escape', /path separator/],
    ['a\nb', /control character/],
    ['d'.repeat(251), /longer than 250/],
  ])('refuses the unsafe dispatch_id %j', async (dispatch_id, message) => {
    const payload = { ...augment, meta: { ...meta, dispatch_id } };
    const error = await expectRefusal(connector().deliver('perry', payload), 'client_validation', message);
    expect(error.agent_id).toBe('perry');
    expect(await readdir(dir)).toEqual([]);
  });

  it('accepts a dispatch_id of exactly 250 bytes', async () => {
    const dispatch_id = 'd'.repeat(250);
    await connector().deliver('perry', { ...augment, meta: { ...meta, dispatch_id } });
    expect(await readdir(join(dir, 'perry'))).toEqual([`${dispatch_id}.json`]);
  });

  it('refuses agents outside the configured list with the reference message', async () => {
    await expectRefusal(
      connector(['alice', 'bob']).deliver('carol@x', augment),
      'client_validation',
      /^Agent 'carol' is not configured\. Wired agents: alice, bob\.$/,
    );
    await expectRefusal(connector([]).wake('carol'), 'client_validation', /Wired agents: \(none\)\.$/);
    expect((await connector(['alice']).deliver('alice@s', augment)).session_id).toBe('s');
  });

  it('refuses a missing drop directory as client_validation and does not create it', async () => {
    const missing = join(dir, 'missing');
    const drop = new FileDropAgentConnector({ dir: missing });
    await expectRefusal(drop.deliver('perry', augment), 'client_validation', /does not exist/);
    await expect(readdir(missing)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports a file-system fault as network (agent folder is a file)', async () => {
    await writeFile(join(dir, 'perry'), 'not a folder');
    const error = await expectRefusal(connector().deliver('perry', augment), 'network', /ENOTDIR/);
    expect(error.retryable).toBe(true);
    expect(error.cause).toMatchObject({ code: 'ENOTDIR' });
  });

  it('refuses a payload JSON cannot carry, and validates inputs with typed errors', async () => {
    const payload = { ...augment, meta: { ...meta, big: 1n } };
    await expectRefusal(
      connector().deliver('perry', payload),
      'client_validation',
      /cannot be written as JSON/,
    );
    await expect(connector().deliver(42 as unknown as string, augment)).rejects.toMatchObject({
      code: 'invalid_agent_address',
    });
    await expect(
      connector().deliver('perry', { kind: 'binary' } as unknown as typeof augment),
    ).rejects.toMatchObject({ code: 'invalid_contract_value' });
    const numericKind = { ...augment, meta: { ...meta, origin: { skill_name: 'triage', trigger_kind: 7 } } };
    await expect(
      connector().deliver('perry', numericKind as unknown as typeof augment),
    ).rejects.toMatchObject({ code: 'invalid_contract_value' });
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('FileDropAgentConnector.wake', () => {
  it('degrades to a wake file with woken: false, session from the address', async () => {
    const receipt = await connector().wake('perry@kitchen', { context: 'look at CI' });
    expect(receipt).toEqual({ woken_at: NOW, woken: false, session_id: 'kitchen' });
    const [name, ...rest] = await readdir(join(dir, 'perry'));
    expect(rest).toEqual([]);
    expect(name).toMatch(/^wake-[0-9a-f-]{36}\.json$/);
    const bytes = await readFile(join(dir, 'perry', name as string), 'utf8');
    expect(bytes).toBe(
      '{\n  "agent_id": "perry@kitchen",\n  "session_id": "kitchen",\n  "kind": "wake",\n  "context": "look at CI"\n}\n',
    );
  });

  it('lets opts.session_id win and writes a file even without context', async () => {
    const drop = connector();
    expect(await drop.wake('perry@kitchen', { session_id: 'tab-3' })).toEqual({
      woken_at: NOW,
      woken: false,
      session_id: 'tab-3',
    });
    expect(await drop.wake('perry')).toEqual({ woken_at: NOW, woken: false });
    const files = await readdir(join(dir, 'perry'));
    expect(files).toHaveLength(2);
    const documents = await Promise.all(
      files.map(async (f) => JSON.parse(await readFile(join(dir, 'perry', f), 'utf8'))),
    );
    expect(documents).toContainEqual({ agent_id: 'perry@kitchen', session_id: 'tab-3', kind: 'wake' });
    expect(documents).toContainEqual({ agent_id: 'perry', kind: 'wake' });
  });

  it('writes a scheduled wake immediately with a warning', async () => {
    const receipt = await connector().wake('perry', { context: 'c', when: NOW + 60_000 });
    expect(receipt.woken).toBe(false);
    expect(receipt.warnings).toEqual(['scheduled wake not supported by file-drop: written immediately']);
    const [name] = await readdir(join(dir, 'perry'));
    const document = JSON.parse(await readFile(join(dir, 'perry', name as string), 'utf8'));
    expect(document).toEqual({ agent_id: 'perry', kind: 'wake', context: 'c', when: NOW + 60_000 });
  });

  it('throws for misconfiguration and bad options instead of degrading', async () => {
    await expectRefusal(
      new FileDropAgentConnector({ dir: join(dir, 'nope') }).wake('perry'),
      'client_validation',
      /does not exist/,
    );
    await expect(connector().wake('perry', { when: -1 })).rejects.toMatchObject({
      code: 'invalid_contract_value',
    });
  });
});

describe('FileDropAgentConnector.health_check', () => {
  it('is true for a writable directory and false (never a throw) for a missing path or a file', async () => {
    expect(await connector().health_check()).toBe(true);
    expect(await new FileDropAgentConnector({ dir: join(dir, 'missing') }).health_check()).toBe(false);
    await writeFile(join(dir, 'plain'), '');
    expect(await new FileDropAgentConnector({ dir: join(dir, 'plain') }).health_check()).toBe(false);
  });

  it('follows real writability on a read-only directory (root bypasses chmod)', async () => {
    const readOnly = join(dir, 'ro');
    await mkdir(readOnly);
    await chmod(readOnly, 0o555);
    const drop = new FileDropAgentConnector({ dir: readOnly });
    const isRoot = process.getuid?.() === 0;
    try {
      if (isRoot) {
        // chmod does not bind root: the directory really is writable, and health says so.
        expect(await drop.health_check()).toBe(true);
        expect((await drop.deliver('perry', augment)).delivery_id).toBe('perry/d-1.json');
      } else {
        expect(await drop.health_check()).toBe(false);
        const error = await expectRefusal(drop.deliver('perry', augment), 'network', /EACCES/);
        expect(error.retryable).toBe(true);
      }
    } finally {
      await chmod(readOnly, 0o755);
    }
  });
});

describe('FileDropAgentConnector.list_agents', () => {
  it('returns the configured agents, deduplicated, in order', async () => {
    await mkdir(join(dir, 'ignored'));
    expect(await connector(['bob', 'alice', 'bob']).list_agents()).toEqual([
      { agent_id: 'bob', capabilities: ['deliver', 'augment', 'template'] },
      { agent_id: 'alice', capabilities: ['deliver', 'augment', 'template'] },
    ]);
  });

  it('reads sub-folders when unconfigured: sorted, skipping files and hidden folders', async () => {
    await mkdir(join(dir, 'zed'));
    await mkdir(join(dir, 'amy'));
    await mkdir(join(dir, '.cache'));
    await writeFile(join(dir, 'notes.txt'), '');
    const ids = (await connector().list_agents()).map((a) => a.agent_id);
    expect(ids).toEqual(['amy', 'zed']);
    await connector().deliver('perry@s', augment);
    expect((await connector().list_agents()).map((a) => a.agent_id)).toEqual(['amy', 'perry', 'zed']);
  });

  it('throws file_drop_directory_unreadable when the directory cannot be read', async () => {
    const error = await new FileDropAgentConnector({ dir: join(dir, 'missing') })
      .list_agents()
      .catch((e) => e);
    expect(error).toMatchObject({ code: 'file_drop_directory_unreadable' });
    expect(error.details.file).toBe(join(dir, 'missing'));
    expect(error.cause).toMatchObject({ code: 'ENOENT' });
  });
});

describe('FileDropAgentConnector configuration and capabilities', () => {
  it.each([
    [{ dir: '' }, /dir must be/],
    [{ dir: 42 }, /dir must be/],
    [{ dir: 'x', agents: 'alice' }, /array of strings/],
    [{ dir: 'x', agents: [1] }, /array of strings/],
    [{ dir: 'x', agents: ['..'] }, /must be a folder name/],
    [{ dir: 'x', agents: ['a@b'] }, /contains '@'/],
  ])('refuses %j', (options, message) => {
    const build = () => new FileDropAgentConnector(options as never);
    expect(build).toThrow(expect.objectContaining({ code: 'invalid_file_drop_config' }));
    expect(build).toThrow(message);
  });

  it('resolves dir to an absolute path', () => {
    expect(new FileDropAgentConnector({ dir: 'drop' }).dir).toBe(join(process.cwd(), 'drop'));
  });

  it('declares valid static capabilities and does not implement request_response', async () => {
    expect(parseStaticCapabilities(FileDropAgentConnector.staticCapabilities())).toEqual({
      connector_type: 'agent_connector',
      implementation: 'FileDropAgentConnector',
      contract_version: '1.0.0',
      features: { deliver: true, wake: true, list_agents: true, health_check: true },
    });
    await expect(connector().request_response()).rejects.toBeInstanceOf(NotImplementedError);
  });
});
