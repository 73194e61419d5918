import { replay } from '@agentwire/hearthnet/replay';
import { describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { agentwireEventLog } from './agentwire-event-log.js';
import { type EventLogImplementation, eventLogSuite } from './event-log.js';

const hearthnet = agentwireEventLog;

describe('eventLogSuite', () => {
  it('passes every case against @agentwire/hearthnet', async () => {
    const report = await runSuite(eventLogSuite(hearthnet));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.counts.passed).toBe(eventLogSuite(hearthnet).cases.length);
  });

  it('fails an implementation that applies everything', async () => {
    const naive: EventLogImplementation = {
      replay: (events, options) => {
        const result = replay(events, options);
        return {
          ...result,
          applied: [...result.applied, ...result.rejected.map((r) => r.event_id ?? '')],
          rejected: [],
        };
      },
    };
    const report = await runSuite(eventLogSuite(naive));
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed).toContain('hearthnet.event-log.revoked-author');
    expect(failed).toContain('hearthnet.event-log.forged-co-signatures');
    expect(failed).not.toContain('hearthnet.event-log.valid-chain');
    expect(report.results.filter((r) => r.status === 'skipped').map((r) => r.id)).toContain(
      'hearthnet.event-log.valid-chain.view-hashes',
    );
  });
});
