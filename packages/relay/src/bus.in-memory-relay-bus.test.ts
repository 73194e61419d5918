import { describe, expect, it } from 'vitest';
import { InMemoryRelayBus, type RelayBusMessage } from './bus.js';
import { RelayError } from './errors.js';

describe('InMemoryRelayBus', () => {
  it('delivers on a later microtask, before publish resolves, and counts the listeners', async () => {
    const bus = new InMemoryRelayBus();
    const received: RelayBusMessage[] = [];
    await bus.subscribe('tenant', (message) => received.push(message));
    await bus.subscribe('tenant', (message) => received.push(message));
    const published = bus.publish('tenant', { type: 'buffered' });
    expect(received).toEqual([]);
    expect(await published).toBe(2);
    expect(received).toEqual([{ type: 'buffered' }, { type: 'buffered' }]);
  });

  it('hands listeners a frozen copy holding only the fields of the message type', async () => {
    const bus = new InMemoryRelayBus();
    const received: RelayBusMessage[] = [];
    await bus.subscribe('tenant', (message) => received.push(message));
    const message = { type: 'takeover', instanceId: 'i', connectionId: 'c', extra: 1 };
    const published = bus.publish('tenant', message as RelayBusMessage);
    message.instanceId = 'changed';
    await published;
    expect(received).toEqual([{ type: 'takeover', instanceId: 'i', connectionId: 'c' }]);
    expect(Object.isFrozen(received[0])).toBe(true);
  });

  it('passes what a listener throws to onListenerError, with the tenant', async () => {
    const reported: [unknown, string][] = [];
    const bus = new InMemoryRelayBus({
      onListenerError: (error, tenant) => {
        reported.push([error, tenant]);
        throw new Error('the handler fails too');
      },
    });
    const failure = new Error('listener failure');
    await bus.subscribe('tenant:a', () => {
      throw failure;
    });
    let calls = 0;
    await bus.subscribe('tenant:a', () => {
      calls += 1;
    });
    expect(await bus.publish('tenant:a', { type: 'buffered' })).toBe(2);
    expect(calls).toBe(1);
    expect(reported).toEqual([[failure, 'tenant:a']]);
  });

  it('does not deliver to a subscription dropped between publish and delivery, nor count it', async () => {
    const bus = new InMemoryRelayBus();
    let calls = 0;
    const subscription = await bus.subscribe('tenant', () => {
      calls += 1;
    });
    const published = bus.publish('tenant', { type: 'buffered' });
    await subscription.unsubscribe();
    expect(await published).toBe(0);
    expect(calls).toBe(0);
  });

  it.each([
    ['an empty tenant', () => new InMemoryRelayBus().publish('', { type: 'buffered' }), 'tenant'],
    ['a lone surrogate', () => new InMemoryRelayBus().publish('\ud800', { type: 'buffered' }), 'tenant'],
    ['a non-string tenant', () => new InMemoryRelayBus().publish(7 as never, { type: 'buffered' }), 'tenant'],
    ['a message that is null', () => new InMemoryRelayBus().publish('t', null as never), 'message'],
    [
      'an interrupt without chat_id',
      () => new InMemoryRelayBus().publish('t', { type: 'interrupt_inbound', session_key: 's' } as never),
      'message.chat_id',
    ],
    [
      'a listener that is not a function',
      () => new InMemoryRelayBus().subscribe('t', {} as never),
      'listener',
    ],
  ])('refuses %s with invalid_bus_argument', async (_, action, path) => {
    const error = await action().then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ name: 'RelayError', code: 'invalid_bus_argument' });
    expect(error).toBeInstanceOf(RelayError);
    expect(error).toMatchObject({ code: 'invalid_bus_argument', path, name: 'RelayError' });
  });

  it('refuses use after close and drops its subscriptions', async () => {
    const bus = new InMemoryRelayBus();
    let calls = 0;
    const subscription = await bus.subscribe('tenant', () => {
      calls += 1;
    });
    const published = bus.publish('tenant', { type: 'buffered' });
    await bus.close();
    expect(await published).toBe(0);
    await subscription.unsubscribe();
    await expect(bus.publish('tenant', { type: 'buffered' })).rejects.toMatchObject({ code: 'bus_closed' });
    await expect(bus.subscribe('tenant', () => undefined)).rejects.toMatchObject({ code: 'bus_closed' });
    expect(calls).toBe(0);
  });
});
