import { signPayload } from '@agentwire/hearthnet';
import { requestEnvelopeBytes, SseParser, signRequestEnvelope } from '@agentwire/hearthnet/wire';
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
      errorCodeFacts: _c,
      decodeError: _d,
      encodeError: _e,
      ...minimal
    } = ours;
    const report = await runSuite(wireSuite(minimal));
    expect(report.ok).toBe(true);
    const skipped = report.results.filter((r) => r.status === 'skipped').map((r) => r.id);
    expect(skipped).toContain('hearthnet.wire.verify-tampered-body');
    expect(skipped).toContain('hearthnet.wire.response-market-post');
    expect(skipped).toContain('hearthnet.wire.reference-body-signature');
    expect(skipped).toContain('hearthnet.wire.error.code-internal-error');
    expect(skipped).toContain('hearthnet.wire.error.decode-full-body');
    expect(skipped).toContain('hearthnet.wire.error.encode-minimal');
  });

  it('grades decoding what reference nodes send, and dropping malformed fields, as recommended', () => {
    const levels = new Map(wireSuite(ours).cases.map((c) => [c.id, c.level]));
    expect(levels.get('hearthnet.wire.error.decode-full-body')).toBe('required');
    expect(levels.get('hearthnet.wire.error.decode-fastapi-detail')).toBe('recommended');
    expect(levels.get('hearthnet.wire.error.decode-drops-malformed-fields')).toBe('recommended');
  });

  it('fails error rules, decoding and encoding that each get one thing wrong', async () => {
    const report = await runSuite(
      wireSuite({
        ...ours,
        // internal_error retried for every capability, idempotent or not.
        errorCodeFacts: async (code) => {
          const facts = await ours.errorCodeFacts!(code);
          return code === 'internal_error' ? { ...facts, retry_if_not_idempotent: true } : facts;
        },
        // The HTTP status trusted over a known code in the body.
        decodeError: async (body, status) => {
          const decoded = await ours.decodeError!(body, status);
          return status === 500 ? { ...decoded, code: 'internal_error' } : decoded;
        },
        // alt_nodes left out of the body.
        encodeError: async (facts) => {
          const { alt_nodes: _dropped, ...rest } = facts;
          return ours.encodeError!(rest);
        },
      }),
    );
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed.sort()).toEqual([
      'hearthnet.wire.error.code-internal-error',
      'hearthnet.wire.error.decode-known-code-beats-status',
      'hearthnet.wire.error.encode-retry-after',
    ]);
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

  it('fails a signer that signs for any from, an encoder that writes any event name, and a verifier that throws for a left-out header', async () => {
    const report = await runSuite(
      wireSuite({
        ...ours,
        // The bare seed: the SDK cannot compare from with the signer's node id.
        signRequest: (fields, seed) => signRequestEnvelope(fields, seed).signature,
        encodeSseFrame: (frame) => `event: ${frame.event}\ndata: ${JSON.stringify(frame.data)}\n\n`,
        // Builds the envelope first, which throws for a null field.
        verifyRequest: (fields, signature) => {
          requestEnvelopeBytes(fields);
          return ours.verifyRequest!(fields, signature);
        },
      }),
    );
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed.sort()).toEqual([
      'hearthnet.wire.sign-refuses-foreign-from',
      'hearthnet.wire.sse.encode-refuses-empty-event',
      'hearthnet.wire.sse.encode-refuses-event-with-cr',
      'hearthnet.wire.sse.encode-refuses-event-with-lf',
      'hearthnet.wire.verify-community-left-out',
      'hearthnet.wire.verify-request-id-left-out',
    ]);
  });

  it('fails a reader whose refusals carry no reason, and a parser that skips a BOM anywhere', async () => {
    const report = await runSuite(
      wireSuite({
        ...ours,
        readSseFrames: async (chunks) => {
          try {
            return await ours.readSseFrames(chunks);
          } catch {
            throw new Error('refused');
          }
        },
        parseSse: (chunks) =>
          ours.parseSse(chunks.map((c) => (typeof c === 'string' ? c.replace(/^\uFEFF/, '') : c))),
      }),
    );
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.id);
    expect(failed).toContain('hearthnet.wire.sse.parse-bom-not-at-start');
    expect(failed).toContain('hearthnet.wire.sse.read-ends-inside-utf8');
    expect(failed).toContain('hearthnet.wire.sse.read-invalid-json');
    expect(failed).not.toContain('hearthnet.wire.sse.parse-bom-text');
  });
});

describe('wireSuite through registerSuite', () => {
  registerSuite(wireSuite(ours), { describe, it, afterAll });
});
