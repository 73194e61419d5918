import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runSuite } from '../run-suite.js';
import { relayConnectorSubject } from './bundled-suites.js';

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('relayConnectorSubject', () => {
  it('serves the relay and its side channels on one loopback port, and stop closes it', async () => {
    const started = await relayConnectorSubject.start();
    let port = 0;
    try {
      expect(started.suites.map((s) => s.name)).toEqual(['relay.live', 'relay.edge-live']);
      const edge = started.suites[1]!;
      port = Number(/127\.0\.0\.1:(\d+)/.exec(edge.description)?.[1]);
      expect(await accepts(port)).toBe(true);
      const report = await runSuite(edge);
      expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    } finally {
      await started.stop();
    }
    expect(await accepts(port)).toBe(false);
  });

  it('starts a fresh connector each time, with its own port', async () => {
    const first = await relayConnectorSubject.start();
    const second = await relayConnectorSubject.start();
    try {
      expect(first.suites[1]!.description).not.toBe(second.suites[1]!.description);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });
});
