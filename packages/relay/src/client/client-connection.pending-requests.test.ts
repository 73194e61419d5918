import { afterEach, describe, expect, it } from 'vitest';
import { connectionLostError } from '../transport.js';
import { PendingRequests } from './client-connection.js';

describe('PendingRequests', () => {
  const lost = (what: string, requestId: string) => connectionLostError(what, requestId);
  let requests: PendingRequests | undefined;

  afterEach(() => {
    requests?.failAll(lost);
    requests = undefined;
  });

  it('resolves a request with its result, once; other ids are not waited for', async () => {
    requests = new PendingRequests(60_000);
    const result = requests.wait('a', 'send_outbound');
    expect(requests.size).toBe(1);
    expect(requests.resolve('b', { success: true })).toBe(false);
    expect(requests.resolve('a', { success: true, message_id: 'm' })).toBe(true);
    expect(requests.resolve('a', { success: false })).toBe(false);
    await expect(result).resolves.toStrictEqual({ success: true, message_id: 'm' });
    expect(requests.size).toBe(0);
  });

  it('times out every request left waiting, oldest first, with one timer', async () => {
    requests = new PendingRequests(5);
    const settled: string[] = [];
    const waits = ['a', 'b', 'c'].map((id) =>
      requests?.wait(id, 'send_outbound').then(
        () => settled.push(`${id}:result`),
        (error: unknown) => {
          expect(error).toMatchObject({ name: 'RelayTransportError', code: 'outbound_timeout' });
          expect(error).toMatchObject({ requestId: id });
          settled.push(`${id}:timeout`);
        },
      ),
    );
    requests.resolve('b', { success: true });
    await Promise.all(waits);
    expect(settled).toStrictEqual(['b:result', 'a:timeout', 'c:timeout']);
    expect(requests.size).toBe(0);
    // A result after the timeout changes nothing.
    expect(requests.resolve('a', { success: true })).toBe(false);
  });

  it('gives a result to the latest request of a reused id; the earlier one still times out', async () => {
    requests = new PendingRequests(5);
    const first = requests.wait('same', 'send_outbound');
    const second = requests.wait('same', 'get_chat_info');
    expect(requests.size).toBe(2);
    expect(requests.resolve('same', { success: true })).toBe(true);
    await expect(second).resolves.toStrictEqual({ success: true });
    await expect(first).rejects.toMatchObject({ code: 'outbound_timeout' });
    expect(requests.size).toBe(0);
  });

  it('fails every waiting request with the error failAll builds for it', async () => {
    requests = new PendingRequests(60_000);
    const first = requests.wait('a', 'send_outbound');
    const second = requests.wait('b', 'get_chat_info');
    requests.failAll(lost);
    await expect(first).rejects.toMatchObject({
      name: 'RelayTransportError',
      code: 'connection_lost',
      requestId: 'a',
    });
    await expect(second).rejects.toMatchObject({ code: 'connection_lost' });
    expect(requests.size).toBe(0);
    expect(requests.resolve('a', { success: true })).toBe(false);
  });
});
