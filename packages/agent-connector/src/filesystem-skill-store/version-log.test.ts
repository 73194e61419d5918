import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { VersionInfo } from '../storage/skill-store.js';
import {
  appendVersionEntry,
  EMPTY_VERSION_LOG,
  readLastLogLine,
  readVersionLog,
} from './filesystem-skill-store.js';

let dir: string;
let path: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'version-log-'));
  path = join(dir, 'demo.versions.jsonl');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const entry = (changed_at: number): VersionInfo => ({
  name: 'demo',
  version: 'abcdef012345',
  content_hash: 'ab'.repeat(32),
  status: 'Draft',
  changed_at,
});

describe('readVersionLog / appendVersionEntry', () => {
  it('reads a missing file as an empty log', async () => {
    expect(await readVersionLog(path)).toEqual(EMPTY_VERSION_LOG);
  });

  it('appends entries as JSON lines, atomically, oldest first', async () => {
    await appendVersionEntry(path, EMPTY_VERSION_LOG, entry(1));
    await appendVersionEntry(path, await readVersionLog(path), entry(2));
    expect(await readFile(path, 'utf8')).toBe(`${JSON.stringify(entry(1))}\n${JSON.stringify(entry(2))}\n`);
    expect((await readVersionLog(path)).entries).toEqual([entry(1), entry(2)]);
    expect(await readdir(dir)).toEqual(['demo.versions.jsonl']);
  });

  it('starts over from the empty log', async () => {
    await writeFile(path, `${JSON.stringify(entry(1))}\n`);
    await appendVersionEntry(path, EMPTY_VERSION_LOG, entry(9));
    expect((await readVersionLog(path)).entries).toEqual([entry(9)]);
  });

  it('leaves out a torn last line and lines that are not VersionInfo records', async () => {
    const text = `${JSON.stringify(entry(1))}\n[]\n{"name":"demo","status":"Live"}\n\n${JSON.stringify(entry(2)).slice(0, 30)}`;
    await writeFile(path, text);
    const log = await readVersionLog(path);
    expect(log.entries).toEqual([entry(1)]);
    expect(log.completeText).toBe(text.slice(0, text.lastIndexOf('\n') + 1));
  });
});

describe('readLastLogLine', () => {
  it('is undefined for a missing or empty file, or one with only newlines', async () => {
    expect(await readLastLogLine(path)).toBeUndefined();
    await writeFile(path, '');
    expect(await readLastLogLine(path)).toBeUndefined();
    await writeFile(path, '\n\n\n');
    expect(await readLastLogLine(path)).toBeUndefined();
  });

  it('finds the last non-empty line of any file, across chunk boundaries', async () => {
    const line = fc.string({ unit: 'grapheme', maxLength: 3000 }).map((text) => text.replaceAll('\n', ' '));
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 6 }),
        fc.nat({ max: 5000 }),
        fc.nat({ max: 3 }),
        async (lines, pad, trailing) => {
          const text = `${'x'.repeat(pad)}\n${lines.join('\n')}${'\n'.repeat(trailing)}`;
          await writeFile(path, text);
          const expected = text
            .split('\n')
            .filter((candidate) => candidate !== '')
            .at(-1);
          expect(await readLastLogLine(path)).toBe(expected);
        },
      ),
      { numRuns: 60 },
    );
  });
});
