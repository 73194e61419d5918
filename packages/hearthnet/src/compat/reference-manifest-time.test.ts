import { describe, expect, it } from 'vitest';
import { readReferenceManifestTime } from './reference-manifests.js';

const at = Date.UTC(2026, 4, 26, 8, 14, 52);

describe('readReferenceManifestTime (the reference’s _parse_rfc3339 over datetime.fromisoformat)', () => {
  it.each([
    ['2026-05-26T08:14:52Z', at],
    ['2026-05-26T08:14:52ZZ', at],
    ['2026-05-26T08:14:52', at],
    ['2026-05-26T08:14:52+02:00', at],
    ['2026-05-26 08:14:52Z', at],
    ['2026-05-26t08:14:52Z', at],
    ['2026-05-26é08:14:52Z', at],
    ['2026-05-26😀08:14:52Z', at],
    ['20260526T081452Z', at],
    ['20260526T08:14:52Z', at],
    ['2026-05-26T081452Z', at],
    ['2026-05-26T08:14Z', at - 52_000],
    ['2026-05-26T0814Z', at - 52_000],
    ['2026-05-26T08Z', at - 14 * 60_000 - 52_000],
    // CPython reads a fraction after the hour or the minute as a fraction of a second.
    ['2026-05-26T08.5Z', at - 14 * 60_000 - 52_000 + 500],
    ['2026-05-26T08:14.5Z', at - 52_000 + 500],
    ['2026-05-26', Date.UTC(2026, 4, 26)],
    ['20260526', Date.UTC(2026, 4, 26)],
    ['2026-05-26T08:14:52,5Z', at + 500],
    ['2026-05-26T08:14:52.1Z', at + 100],
    ['2026-05-26T08:14:52.123456789Z', at + 124],
    ['2026-05-26T08:14:52.000001Z', at + 1],
    ['2026-05-26T08:14:52.000000Z', at],
    ['0001-01-01', new Date('0001-01-01T00:00:00Z').getTime()],
  ])('reads %j', (text, expected) => {
    expect(readReferenceManifestTime(text)).toBe(expected);
  });

  it.each([
    '',
    'soon',
    '2026-05-26T',
    '2026-05-26 ',
    ' 2026-05-26',
    '2026-05-2608:14:52',
    '2026-05-26T8:14:52',
    '2026-05-26T08:14:5',
    '2026-05-26T08:1452',
    '2026-05-26T0814:52',
    '2026-05-26T08:14:52.',
    '2026-05-26T08:14:52.Z',
    '2026-05-26T08:14:52.12a',
    '2026-05-26T08:14:52z',
    '2026-05-26T08:14:52 ',
    '2026-05-26T08:14:52-05:00',
    '2026-05-26T08:14:52-00:00',
    '2026-W21-2',
    '2026W212',
    '2026-0526',
    '202605-26',
    '2026-5-26',
    '2026-05-26T24:00:00',
    '2026-05-26T23:60:00',
    '2026-05-26T23:59:60',
    '2026-02-29',
    '0000-01-01',
    '２０２６-05-26',
  ])('refuses %j, as fromisoformat does (or where it would misread an offset)', (text) => {
    expect(readReferenceManifestTime(text)).toBeUndefined();
  });

  it('refuses what is not a string', () => {
    expect(readReferenceManifestTime(5)).toBeUndefined();
    expect(readReferenceManifestTime(null)).toBeUndefined();
  });
});
