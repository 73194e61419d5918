import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkUtf8, typedText } from './tmux-agent-connector.js';

const utf8 = new TextEncoder();

describe('typedText', () => {
  it.each([
    ['plain', 'plain', 0],
    ['a\r\nb\rc\nd', 'a\nb\nc\nd', 0],
    ['keep\ttabs', 'keep\ttabs', 0],
    ['trailing\n\r\n\r', 'trailing', 0],
    ['\n\nleading', '\n\nleading', 0],
    ['stop\u0003 \u0004 \u001b[0m \u007f \u0085 \u009b', 'stop  [0m   ', 6],
    ['\u0000', '', 1],
    ['\u2028 and \u00a0 stay', '\u2028 and \u00a0 stay', 0],
  ])('%j → %j (%i removed)', (raw, text, removed) => {
    expect(typedText(raw)).toEqual({ text, removed });
  });

  it('leaves no control character but LF and TAB, no CR, no trailing LF, and is idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (raw) => {
        const { text } = typedText(raw);
        expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
        expect(text.endsWith('\n')).toBe(false);
        expect(typedText(text)).toEqual({ text, removed: 0 });
      }),
      { numRuns: 100 },
    );
  });
});

describe('chunkUtf8', () => {
  it('splits at code points, never inside one', () => {
    expect(chunkUtf8('héllo', 3)).toEqual(['hé', 'llo']);
    expect(chunkUtf8('🎉🎉a', 4)).toEqual(['🎉', '🎉', 'a']);
    expect(chunkUtf8('', 8)).toEqual([]);
  });

  it('gives pieces of at most maxBytes that join back to the text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 80 }),
        fc.integer({ min: 4, max: 20 }),
        (text, max) => {
          const chunks = chunkUtf8(text, max);
          expect(chunks.join('')).toBe(text);
          for (const chunk of chunks) {
            expect(chunk).not.toBe('');
            expect(utf8.encode(chunk).length).toBeLessThanOrEqual(max);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
