import { describe, expect, it } from 'vitest';
import type { SuiteReport } from '../run-suite.js';
import { colourEnabled, paint, SuiteProgress } from './run-cli.js';

function report(ok: boolean): SuiteReport {
  return {
    suite: 'relay.live',
    version: '1.0.0',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 12.4,
    counts: { passed: 2, failed: ok ? 0 : 1, skipped: 1, unobserved: 0, expectedFailures: 0, stale: 0 },
    ok,
    results: [],
    errors: [],
  };
}

function recorder(isTTY: boolean, colour = false) {
  const written: string[] = [];
  return { stream: { write: (text: string) => void written.push(text), isTTY, colour }, written };
}

const caseResult = {
  id: 'x',
  title: 'x',
  section: '§1',
  level: 'required',
  status: 'passed',
  durationMs: 1,
} as const;

describe('SuiteProgress', () => {
  it('rewrites one live line per suite on a terminal', () => {
    const { stream, written } = recorder(true);
    const progress = new SuiteProgress(stream);
    progress.start('relay.live', 3);
    progress.caseDone(caseResult);
    progress.finish(report(false));
    expect(written).toEqual([
      '\r\u001b[2Krunning relay.live … 0/3',
      '\r\u001b[2Krunning relay.live … 1/3',
      '\r\u001b[2KFAILED relay.live: 2 passed, 1 failed, 1 skipped (12 ms)\n',
    ]);
  });

  it('writes plain lines elsewhere', () => {
    const { stream, written } = recorder(false);
    const progress = new SuiteProgress(stream);
    progress.start('relay.live', 3);
    progress.caseDone(caseResult);
    progress.finish(report(true));
    expect(written).toEqual([
      'running relay.live (3 cases)\n',
      'ok relay.live: 2 passed, 1 skipped (12 ms)\n',
    ]);
  });

  it('colours only when the stream may be coloured', () => {
    const { stream, written } = recorder(false, true);
    new SuiteProgress(stream).finish(report(true));
    expect(written[0]).toBe(`${paint('ok', 'green', true)} : 2 passed, 1 skipped (12 ms)\n`);
    expect(paint('ok', 'green', false)).toBe('ok');
  });
});

describe('colourEnabled', () => {
  it.each([
    [true, {}, true],
    [false, {}, false],
    [true, { NO_COLOR: '1' }, false],
    [true, { NO_COLOR: '' }, true],
  ])('isTTY %s, env %j → %s', (isTTY, env, expected) => {
    expect(colourEnabled(isTTY, env)).toBe(expected);
  });
});
