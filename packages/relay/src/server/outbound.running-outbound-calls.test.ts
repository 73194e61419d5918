import { describe, expect, it } from 'vitest';
import { RelayError } from '../errors.js';
import { RunningOutboundCalls } from './outbound.js';

function abortReasons() {
  const reasons: Error[] = [];
  return { reasons, onAbort: (reason: Error) => reasons.push(reason) };
}

describe('RunningOutboundCalls', () => {
  it('times out only the calls still running at their deadline, each once', async () => {
    const calls = new RunningOutboundCalls(20);
    const slow = abortReasons();
    const fast = abortReasons();
    const slowCall = calls.start('send', slow.onAbort);
    const fastCall = calls.start('edit', fast.onAbort);
    fastCall.finish();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(slow.reasons).toHaveLength(1);
    expect(slow.reasons[0]).toMatchObject({ name: 'RelayError', code: 'relay_server_outbound_timeout' });
    expect((slow.reasons[0] as RelayError).details?.op).toBe('send');
    expect(slowCall.signal.aborted).toBe(true);
    expect(slowCall.signal.reason).toBe(slow.reasons[0]);
    expect(fast.reasons).toEqual([]);
    expect(fastCall.signal.aborted).toBe(false);
    expect(calls.size).toBe(0);
  });

  it('keeps timing calls started after an earlier one finished', async () => {
    const calls = new RunningOutboundCalls(15);
    calls.start('typing', () => {}).finish();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const late = abortReasons();
    calls.start('send', late.onAbort);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(late.reasons.map((reason) => (reason as RelayError).code)).toEqual([
      'relay_server_outbound_timeout',
    ]);
  });

  it('aborts a signal taken before the abort and hands out an aborted one after it', () => {
    const calls = new RunningOutboundCalls(60_000);
    const early = calls.start('send', () => {});
    const earlySignal = early.signal;
    const late = calls.start('edit', () => {});
    const reason = new RelayError('relay_server_connection_closed', 'the gateway connection closed');
    calls.closeAll(reason);
    expect(earlySignal.aborted).toBe(true);
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBe(reason);
  });

  it('aborts running calls and every later one once closed, and not a finished one', () => {
    const calls = new RunningOutboundCalls(60_000);
    const running = abortReasons();
    const finished = abortReasons();
    calls.start('send', running.onAbort);
    calls.start('react', finished.onAbort).finish();
    const reason = new RelayError('relay_server_connection_closed', 'the gateway connection closed');
    calls.closeAll(reason);
    const later = abortReasons();
    const laterCall = calls.start('typing', later.onAbort);
    expect(running.reasons).toEqual([reason]);
    expect(finished.reasons).toEqual([]);
    expect(later.reasons).toEqual([reason]);
    expect(laterCall.signal.aborted).toBe(true);
    laterCall.finish();
    expect(calls.size).toBe(0);
  });
});
