import { describe, expect, it } from 'vitest';
import { parseStaticCapabilities } from './contract/agent-connector.js';
import { NotImplementedError } from './contract/errors.js';
import { NoOpAgentConnector } from './noop.js';

const meta = { dispatch_id: 'd-1', sent_at: 1, origin: { skill_name: 's', trigger_kind: 'inline' as const } };

function connector() {
  const lines: string[] = [];
  const noop = new NoOpAgentConnector({ log: (line) => lines.push(line), now: () => 1_767_225_600_000 });
  return { noop, lines };
}

describe('NoOpAgentConnector', () => {
  it('lists no agents and is always healthy with unknown status', async () => {
    const { noop } = connector();
    expect(await noop.list_agents()).toEqual([]);
    expect(await noop.health_check()).toBe(true);
    expect(await noop.agent_status()).toBe('unknown');
  });

  it('acknowledges a delivery with only delivered_at and logs one line', async () => {
    const { noop, lines } = connector();
    const receipt = await noop.deliver('alice', { kind: 'template', prompt: 'p', meta });
    expect(receipt).toEqual({ delivered_at: 1_767_225_600_000 });
    expect(lines).toEqual([
      '[NoOpAgentConnector] deliver(alice, kind=template, dispatch_id=d-1) — no substrate wired; payload discarded.',
    ]);
  });

  it('accepts an unknown trigger_kind, as the reference runtime sends it', async () => {
    const { noop, lines } = connector();
    const session = { ...meta, origin: { skill_name: 's', trigger_kind: 'session' } };
    expect(await noop.deliver('alice', { kind: 'augment', content: 'c', meta: session })).toEqual({
      delivered_at: 1_767_225_600_000,
    });
    expect(lines).toHaveLength(1);
    await expect(
      noop.deliver('alice', {
        kind: 'augment',
        content: 'c',
        meta: { ...meta, origin: { skill_name: 's', trigger_kind: 7 as unknown as string } },
      }),
    ).rejects.toMatchObject({ code: 'invalid_contract_value' });
    expect(lines).toHaveLength(1);
  });

  it('answers a wake with woken: false and no session echo', async () => {
    const { noop, lines } = connector();
    expect(await noop.wake('perry@kitchen', { context: 'c', session_id: 'tab' })).toEqual({
      woken_at: 1_767_225_600_000,
      woken: false,
    });
    expect(await noop.wake('perry')).toEqual({ woken_at: 1_767_225_600_000, woken: false });
    expect(lines).toEqual([
      '[NoOpAgentConnector] wake(perry@kitchen) — no substrate wired; wake skipped.',
      '[NoOpAgentConnector] wake(perry) — no substrate wired; wake skipped.',
    ]);
  });

  it('throws NotImplementedError from request_response', async () => {
    const { noop } = connector();
    await expect(noop.request_response()).rejects.toBeInstanceOf(NotImplementedError);
    await expect(noop.request_response()).rejects.toThrow(/not implemented/);
  });

  it('validates its inputs with typed errors', async () => {
    const { noop, lines } = connector();
    await expect(
      noop.deliver(1 as unknown as string, { kind: 'augment', content: 'x', meta }),
    ).rejects.toMatchObject({ code: 'invalid_agent_address' });
    await expect(
      noop.deliver('a', { kind: 'binary', content: 'x', meta } as unknown as Parameters<
        typeof noop.deliver
      >[1]),
    ).rejects.toMatchObject({ code: 'invalid_contract_value' });
    await expect(noop.wake('a', { when: 'soon' } as never)).rejects.toMatchObject({
      code: 'invalid_contract_value',
    });
    expect(lines).toEqual([]);
  });

  it('declares every feature but request_response', () => {
    const caps = parseStaticCapabilities(NoOpAgentConnector.staticCapabilities());
    expect(caps).toEqual({
      connector_type: 'agent_connector',
      implementation: 'NoOpAgentConnector',
      contract_version: '1.0.0',
      features: { deliver: true, wake: true, list_agents: true, agent_status: true, health_check: true },
    });
  });

  it('logs to console.error by default and stays quiet with log: null', async () => {
    const original = console.error;
    const seen: unknown[] = [];
    console.error = (...args: unknown[]) => seen.push(args[0]);
    try {
      await new NoOpAgentConnector().wake('x');
      await new NoOpAgentConnector({ log: null }).wake('y');
    } finally {
      console.error = original;
    }
    expect(seen).toEqual(['[NoOpAgentConnector] wake(x) — no substrate wired; wake skipped.']);
  });
});
