import type { PlatformAdapter } from '@agentwire/relay/server';
import { describe, expect, it } from 'vitest';
import { runSuite, type SuiteReport } from '../../run-suite.js';
import {
  InMemoryChatPlatform,
  inMemoryChatAdapter,
  inMemoryChatUnderTest,
} from './in-memory-chat-platform.js';
import type { PlatformAdapterUnderTest } from './platform-adapter-subject.js';
import { platformAdapterSuite } from './platform-adapter-suite.js';

function statuses(report: SuiteReport): Record<string, string> {
  return Object.fromEntries(
    report.results.map((r) => [r.id.replace('relay.platform-adapter.', ''), r.status]),
  );
}

function failure(report: SuiteReport, id: string): string {
  const result = report.results.find((r) => r.id === `relay.platform-adapter.${id}`);
  expect(result?.status).toBe('failed');
  return result?.error?.message ?? '';
}

/** The in-memory platform with its adapter changed by `breakAdapter`. */
function broken(breakAdapter: (adapter: PlatformAdapter, platform: InMemoryChatPlatform) => PlatformAdapter) {
  return (): PlatformAdapterUnderTest => {
    const subject = inMemoryChatUnderTest();
    return { ...subject, adapter: breakAdapter(subject.adapter, subject.platform) };
  };
}

const run = (create: () => PlatformAdapterUnderTest) => runSuite(platformAdapterSuite({ create }));

describe('platformAdapterSuite', () => {
  it('passes the in-memory chat platform adapter, every case run', async () => {
    const report = await run(inMemoryChatUnderTest);
    expect(report.errors).toEqual([]);
    expect(statuses(report)).toEqual({
      'op.send': 'passed',
      'op.edit': 'passed',
      'op.typing': 'passed',
      'op.get_chat_info': 'passed',
      'op.send_media': 'passed',
      'op.prompt': 'passed',
      'op.react': 'passed',
      'op.thread_create': 'passed',
      'op.thread_rename': 'passed',
      'refusal.reported': 'passed',
      'send.delivered': 'passed',
    });
  });

  it('fails an adapter that always throws, with the thrown message', async () => {
    const throwing = broken((adapter) => ({
      descriptor: adapter.descriptor,
      send: () => {
        throw new Error('socket hang up');
      },
      get_chat_info: () => {
        throw new Error('socket hang up');
      },
    }));
    const report = await run(throwing);
    expect(failure(report, 'op.send')).toMatch(/^send to chat "C-general" failed: .*socket hang up/);
    expect(failure(report, 'op.get_chat_info')).toMatch(/socket hang up/);
    expect(failure(report, 'send.delivered')).toMatch(/^send failed/);
    expect(statuses(report)['op.edit']).toBe('skipped');
  });

  it('fails an adapter that always answers success: false', async () => {
    const refusing = broken((adapter) => ({
      descriptor: adapter.descriptor,
      send: () => ({ success: false, error: 'rate limited' }),
      typing: () => ({ success: false }),
      thread_create: () => ({ success: false, error: 'rate limited' }),
    }));
    const report = await run(refusing);
    expect(failure(report, 'op.send')).toMatch(/rate limited.*expected success: true$/);
    expect(failure(report, 'op.typing')).toMatch(/expected success: true$/);
    expect(failure(report, 'op.thread_create')).toMatch(/rate limited/);
    // It refuses the unknown chat too, but with its own words, not the platform's.
    expect(failure(report, 'refusal.reported')).toBe(
      `the refused send's error is "rate limited"; expected the platform's reason "Unknown Channel" in it`,
    );
  });

  it('fails an adapter that returns a wrong-shaped result, which the server turns into a failure', async () => {
    const misshapen = broken((adapter) => ({
      ...adapter,
      send: () => ({ ok: true, id: 'M1' }) as never,
      thread_create: () => ({ success: 'yes', thread_id: 7 }) as never,
    }));
    const report = await run(misshapen);
    expect(failure(report, 'op.send')).toMatch(/the platform adapter returned an invalid result/);
    expect(failure(report, 'op.thread_create')).toMatch(/the platform adapter returned an invalid result/);
    expect(statuses(report)['op.typing']).toBe('passed');
  });

  it('fails a success without the ids the gateway uses', async () => {
    const idless = broken((adapter, platform) => ({
      ...adapter,
      send: ({ chat_id, content }) => {
        platform.post(chat_id, content);
        return { success: true };
      },
      thread_create: () => ({ success: true }),
    }));
    const report = await run(idless);
    expect(failure(report, 'op.send')).toBe(
      'send succeeded with no message_id naming the message it posted: {"success": true}',
    );
    expect(failure(report, 'op.thread_create')).toMatch(/^thread_create succeeded with no thread_id/);
    expect(statuses(report)['send.delivered']).toBe('passed');
  });

  it('fails a get_chat_info answered without chat_info', async () => {
    const noChatInfo = broken((adapter) => ({ ...adapter, get_chat_info: () => ({ success: true }) }));
    const report = await run(noChatInfo);
    expect(failure(report, 'op.get_chat_info')).toBe(
      'get_chat_info succeeded with no chat_info object: {"success": true}',
    );
    const nameless = broken((adapter) => ({
      ...adapter,
      get_chat_info: () => ({ success: true, chat_info: { name: '', type: 'group' } }),
    }));
    expect(failure(await run(nameless), 'op.get_chat_info')).toMatch(
      /^get_chat_info succeeded with chat_info.name/,
    );
  });

  it('fails an adapter that reports success for a chat the platform refuses', async () => {
    const swallowing = broken((adapter) => ({
      ...adapter,
      send: async (action, context) => {
        const result = await adapter.send!(action, context);
        return result.success ? result : { success: true, message_id: 'queued' };
      },
    }));
    const report = await run(swallowing);
    expect(failure(report, 'refusal.reported')).toMatch(
      /^a send to chat "C-removed", which the platform refuses, was answered with .*expected success: false$/,
    );
    expect(statuses(report)['op.send']).toBe('passed');
  });

  it('fails a send that reports success and sends nothing, when the platform is observed', async () => {
    const silent = broken((adapter) => ({
      ...adapter,
      send: ({ chat_id }) => ({ success: true, message_id: `${chat_id}-1` }),
    }));
    const report = await run(silent);
    expect(failure(report, 'send.delivered')).toMatch(
      /^send reported .* but the platform received no message with its text in chat "C-general"/,
    );
    // The same adapter without observe: the run is reduced, not passed in full.
    const unobserved = await run(() => {
      const { observe: _observe, ...subject } = silent();
      return subject;
    });
    expect(statuses(unobserved)['send.delivered']).toBe('unobserved');
    expect(statuses(unobserved)['op.send']).toBe('passed');
  });

  it('passes the in-memory adapter and fails one that reports sends it never made, side by side', async () => {
    const silent = broken((adapter) => ({ ...adapter, send: () => ({ success: true, message_id: 'M0' }) }));
    const [good, bad] = await Promise.all(
      [inMemoryChatUnderTest, silent].map((create) => runSuite(platformAdapterSuite({ create }))),
    );
    expect(good!.ok).toBe(true);
    expect(statuses(bad!)['send.delivered']).toBe('failed');
  });

  it('refuses unusable options', () => {
    expect(() => platformAdapterSuite({} as never)).toThrow(/create must be a function/);
    expect(() => platformAdapterSuite({ create: inMemoryChatUnderTest, patienceMs: 0 })).toThrow(
      /patienceMs must be a positive number/,
    );
  });

  it('fails every case with the reason when create answers something unusable, and disposes of it', async () => {
    let disposed = 0;
    const report = await run(() => ({
      ...inMemoryChatUnderTest(),
      refusal: { chatId: 'C-removed', reason: '' },
      dispose: () => {
        disposed += 1;
      },
    }));
    expect(report.errors.map((e) => e.message)).toEqual([
      'setup of suite relay.platform-adapter failed: refusal must be { chatId: string, reason: non-empty string }, got {"chatId": "C-removed", "reason": ""}',
    ]);
    expect(new Set(Object.values(statuses(report)))).toEqual(new Set(['failed']));
    expect(disposed).toBe(1);
  });

  it('keeps the in-memory platform honest: unknown chats and messages are refused', () => {
    const platform = new InMemoryChatPlatform();
    const adapter = inMemoryChatAdapter(platform);
    expect(adapter.descriptor.platform).toBe('memchat');
    expect(() => platform.post('C-removed', 'x')).toThrow('Unknown Channel C-removed');
    expect(() => platform.edit('C-general', 'M99', 'x')).toThrow('Unknown Message M99');
  });
});
