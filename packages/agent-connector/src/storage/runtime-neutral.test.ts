// The storage folder is part of the root entry, which must run outside Node: no `node:*` or other
// Node builtin import in any non-test file.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { describe, expect, it } from 'vitest';

const folder = new URL('./', import.meta.url);
const sources = readdirSync(folder).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
const builtins = new Set(builtinModules);

describe('storage sources', () => {
  it('import no Node builtin', () => {
    expect(sources.length).toBeGreaterThan(3);
    for (const file of sources) {
      const text = readFileSync(new URL(file, folder), 'utf8');
      for (const [, specifier] of text.matchAll(/from\s+'([^']+)'/g)) {
        expect(specifier?.startsWith('node:') || builtins.has(specifier ?? ''), `${file}: ${specifier}`).toBe(
          false,
        );
      }
      expect(text, file).not.toMatch(/\bBuffer\b|\bprocess\./);
    }
  });
});
