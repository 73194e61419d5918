import { signPayload } from '@agentwire/hearthnet';
import { SseParser } from '@agentwire/hearthnet/wire';
import { afterAll, describe, expect, it } from 'vitest';
import { runSuite } from '../../run-suite.js';
import { registerSuite } from '../../vitest/index.js';
import { agentwireWire as ours } from './agentwire-wire.js';
import { wireSuite } from './wire.js';

describe('wireSuite', () => {
  it('passes every case against @agentwire/hearthnet/wire, with nothing skipped', async () => {
    const report = await runSuite(wireSuite(ours));
    expect(report.results.filter((r) => r.status !== 'passed')).toEqual([]);
    expect(report.results.length).toBeGreaterThan(30);
  });

  it('skips the optional cases of a minimal implementation and still passes', async () => {
    const {
      verifyRequest: _v,
      responseEnvelopeBytes: _r,
      signResponse: _s,
      signReferenceBody: _b,
      ...minimal
    } = ours;
    const report = await runSuite(wireSuite(minimal));
    expect(report.ok).toBe(true);
    const skipped = report.results.filter((r) => r.status === 'skipped').map((r) => r.id);
    expect(skipped).toContain('hearthnet.wire.verify-tampered-body');
    expect(skipped).toContain('hearthnet.wire.response-market-post');
    expect(skipped).toContain('hearthnet.wire.reference-body-signature');
  });

  it('fails an implementation that signs the body alone, sorts nothing, or accepts frames after done', async () => {
    const report = await runSuite(
      wireSuite({
        ...ours,
        signRequest: (fields, seed) => signPayload(fields.body as Record<string, unknown>, seed).signature,
        verifyRequest: () => true,
        encodeSseFrame: (frame) => `event:${frame.event}\ndata:${JSON.stringify(frame.data)}\n\n`,
        readSseFrames: (chunks) => {
          const parser = new SseParser();
          return [...chunks.flatMap((c) => parser.push(c)), ...parser.finish()].flatMap((item) =>
            item.type === 'event' ? [{ event: item.event, data: JSON.parse(item.data) }] : [],
          );
        },
      }),
    );
    const failed = new Set(report.results.filter((r) => r.status === 'failed').map((r) => r.id));
    expect(failed.has('hearthnet.wire.request-market-post')).toBe(true);
    expect(failed.has('hearthnet.wire.verify-tampered-timestamp')).toBe(true);
    expect(failed.has('hearthnet.wire.sse.encode-token')).toBe(true);
    expect(failed.has('hearthnet.wire.sse.read-frame-after-done')).toBe(true);
    expect(failed.has('hearthnet.wire.sse.read-missing-terminal')).toBe(true);
    expect(failed.has('hearthnet.wire.sse.parse-crlf')).toBe(false);
  });
});

describe('wireSuite through registerSuite', () => {
  registerSuite(wireSuite(ours), { describe, it, afterAll });
});
