import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CatalogRevision,
  CHANGE_TOKEN_LENGTH,
  catalogChangeToken,
  changeTokenFromLines,
  contentIdentity,
  EMPTY_CATALOG_CHANGE_TOKEN,
  SKILL_STATUSES,
  type SkillStatus,
} from './skill-store.js';

/** The reference SQLite store's token, written out independently with Node's hash. */
const referenceToken = (lines: string[]) =>
  createHash('sha256').update(lines.join('\n'), 'utf8').digest('hex').slice(0, 16);

const revision = (name: string, status: SkillStatus, body: string): CatalogRevision => ({
  name,
  status,
  version: contentIdentity(body).version,
});

describe('changeTokenFromLines', () => {
  it('is the first 16 hex digits of the SHA-256 of the lines joined with newlines', () => {
    expect(CHANGE_TOKEN_LENGTH).toBe(16);
    expect(changeTokenFromLines([])).toBe(EMPTY_CATALOG_CHANGE_TOKEN);
    expect(EMPTY_CATALOG_CHANGE_TOKEN).toBe('e3b0c44298fc1c14');
    expect(changeTokenFromLines(['a.skill.md:1700000000123', 'b.skill.md:1700000000456'])).toBe(
      referenceToken(['a.skill.md:1700000000123', 'b.skill.md:1700000000456']),
    );
  });

  it('keeps the order given', () => {
    expect(changeTokenFromLines(['a', 'b'])).not.toBe(changeTokenFromLines(['b', 'a']));
  });

  it('refuses a non-array, a non-string line and a line holding a newline', () => {
    expect(() => changeTokenFromLines('a' as unknown as string[])).toThrow(
      expect.objectContaining({ code: 'storage_validation' }),
    );
    expect(() => changeTokenFromLines([1] as unknown as string[])).toThrow(
      expect.objectContaining({ path: 'lines[0]' }),
    );
    expect(() => changeTokenFromLines(['a', 'b\nc'])).toThrow(expect.objectContaining({ path: 'lines[1]' }));
  });
});

describe('catalogChangeToken', () => {
  const triage = revision('triage', 'Approved', '# Skill: triage\n# Status: Approved\n');
  const digest = revision('daily-digest', 'Draft', '# Skill: daily-digest\n');

  it('equals the reference SQLite token: <name>:<status>:<version> lines ordered by name', () => {
    expect(catalogChangeToken([triage, digest])).toBe(
      referenceToken([`daily-digest:Draft:${digest.version}`, `triage:Approved:${triage.version}`]),
    );
    expect(catalogChangeToken([])).toBe(EMPTY_CATALOG_CHANGE_TOKEN);
  });

  it('moves on a body edit that keeps the status (the unsecured-mode trap)', () => {
    const edited = revision('triage', 'Approved', '# Skill: triage\n# Status: Approved\nThen rest.\n');
    expect(edited.status).toBe(triage.status);
    expect(catalogChangeToken([digest, edited])).not.toBe(catalogChangeToken([digest, triage]));
  });

  it('moves on an add, a remove and a status change', () => {
    const before = catalogChangeToken([digest, triage]);
    const old = revision('old-report', 'Disabled', '# Skill: old-report\n');
    expect(catalogChangeToken([digest, triage, old])).not.toBe(before);
    expect(catalogChangeToken([triage])).not.toBe(before);
    expect(catalogChangeToken([digest, { ...triage, status: 'Disabled' }])).not.toBe(before);
  });

  it('orders by name, not by line: "a" sorts before "a-b"', () => {
    const a = { name: 'a', status: 'Draft', version: 'bbbbbbbbbbbb' } as const;
    const ab = { name: 'a-b', status: 'Draft', version: 'aaaaaaaaaaaa' } as const;
    expect(catalogChangeToken([ab, a])).toBe(
      referenceToken(['a:Draft:bbbbbbbbbbbb', 'a-b:Draft:aaaaaaaaaaaa']),
    );
  });

  it('orders names by code point (as SQLite orders UTF-8), not by UTF-16 unit', () => {
    const emoji = { name: '\u{1F600}', status: 'Draft', version: '111111111111' } as const;
    const fullwidth = { name: '\uFF5A', status: 'Draft', version: '222222222222' } as const;
    expect(catalogChangeToken([emoji, fullwidth])).toBe(
      referenceToken(['\uFF5A:Draft:222222222222', '\u{1F600}:Draft:111111111111']),
    );
  });

  it('accepts SkillMeta-shaped records (extra fields are ignored) and any iterable', () => {
    const meta = { ...triage, content_hash: 'ab', created_at: 1, updated_at: 2, author: 'perry' };
    expect(catalogChangeToken(new Set([meta]))).toBe(catalogChangeToken([triage]));
  });

  it('refuses input that would make two catalogs hash alike or is not a revision', () => {
    const bad: Array<[unknown, string]> = [
      [[triage, { ...triage, version: 'ffffffffffff' }], 'skills[1].name'],
      [[{ ...triage, status: 'approved' }], 'skills[0].status'],
      [[{ ...triage, version: 'ab:cd' }], 'skills[0].version'],
      [[{ ...triage, version: '' }], 'skills[0].version'],
      [[{ ...triage, name: 'a\nb' }], 'skills[0].name'],
      [[{ ...triage, name: '' }], 'skills[0].name'],
      [[{ ...triage, name: 'a\ud800' }], 'skills[0].name'],
      [[null], 'skills[0]'],
      [42, 'skills'],
      [null, 'skills'],
    ];
    for (const [skills, path] of bad) {
      expect(() => catalogChangeToken(skills as CatalogRevision[])).toThrow(
        expect.objectContaining({ code: 'storage_validation', path }),
      );
    }
  });

  const nameArb = fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 8 })
    .filter((name) => !name.includes('\n'));
  const catalogArb = fc.uniqueArray(
    fc.record({
      name: nameArb,
      status: fc.constantFrom(...SKILL_STATUSES),
      version: fc.stringMatching(/^[0-9a-f]{12}$/),
    }),
    { selector: (skill) => skill.name, minLength: 1, maxLength: 8 },
  );

  it('does not depend on the order the skills are listed in (property)', () => {
    fc.assert(
      fc.property(catalogArb, fc.infiniteStream(fc.nat()), (catalog, seeds) => {
        const shuffled = [...catalog].sort(() => (seeds.next().value % 3) - 1);
        expect(catalogChangeToken(shuffled)).toBe(catalogChangeToken(catalog));
        expect(catalogChangeToken(catalog)).toMatch(/^[0-9a-f]{16}$/);
      }),
      { numRuns: 100 },
    );
  });

  it('moves on every observable change, body edits with an unchanged status included (property)', () => {
    fc.assert(
      fc.property(
        catalogArb,
        fc.nat(),
        fc.stringMatching(/^[0-9a-f]{12}$/),
        fc.constantFrom(...SKILL_STATUSES),
        (catalog, pick, newVersion, newStatus) => {
          const index = pick % catalog.length;
          const target = catalog[index]!;
          const before = catalogChangeToken(catalog);
          const replace = (next: CatalogRevision) => catalog.map((s, i) => (i === index ? next : s));
          if (newVersion !== target.version) {
            expect(catalogChangeToken(replace({ ...target, version: newVersion }))).not.toBe(before);
          }
          if (newStatus !== target.status) {
            expect(catalogChangeToken(replace({ ...target, status: newStatus }))).not.toBe(before);
          }
          expect(catalogChangeToken(catalog.filter((_, i) => i !== index))).not.toBe(before);
        },
      ),
      { numRuns: 150 },
    );
  });
});
