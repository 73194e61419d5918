import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodePromptCallback,
  encodePromptCallback,
  isPromptCallbackToken,
  PROMPT_CALLBACK_ID_PATTERN,
} from './passthrough.js';

const id = fc.stringMatching(/^[A-Za-z0-9_.-]{1,32}$/);

describe('encodePromptCallback / decodePromptCallback', () => {
  it('writes hp1:<prompt_id>:<option_id>', () => {
    expect(encodePromptCallback({ promptId: '1a2b3c4d', optionId: 'once' })).toBe('hp1:1a2b3c4d:once');
    expect(decodePromptCallback('hp1:1a2b3c4d:c0')).toEqual({ promptId: '1a2b3c4d', optionId: 'c0' });
    expect(decodePromptCallback('hp1:n0nce.1a2b3c4d:always')).toEqual({
      promptId: 'n0nce.1a2b3c4d',
      optionId: 'always',
    });
  });

  it('round-trips every pair of valid ids', () => {
    fc.assert(
      fc.property(id, id, (promptId, optionId) => {
        const token = encodePromptCallback({ promptId, optionId });
        expect(isPromptCallbackToken(token)).toBe(true);
        expect(decodePromptCallback(token)).toEqual({ promptId, optionId });
      }),
      { numRuns: 300 },
    );
  });

  it('refuses ids that the token cannot carry, such as ones holding `:`', () => {
    const bad = ['', 'a:b', 'x'.repeat(33), 'ü', 'a b', 'a\n', 5, undefined];
    for (const value of bad) {
      expect(() => encodePromptCallback({ promptId: value as string, optionId: 'once' })).toThrow(
        expect.objectContaining({ code: 'prompt_callback_invalid_id', path: 'promptId' }),
      );
      expect(() => encodePromptCallback({ promptId: 'p', optionId: value as string })).toThrow(
        expect.objectContaining({ code: 'prompt_callback_invalid_id' }),
      );
    }
    expect(() => encodePromptCallback(null as never)).toThrow(
      expect.objectContaining({ code: 'prompt_callback_invalid_id' }),
    );
    expect(encodePromptCallback({ promptId: 'x'.repeat(32), optionId: 'y'.repeat(32) })).toHaveLength(69);
  });

  it('refuses texts that are not exactly hp1 plus two valid ids', () => {
    const cases: [string, string][] = [
      ['HP1:abc:once', 'token'],
      ['hp2:abc:once', 'token'],
      ['hp1:abc', 'token'],
      ['hp1:abc:once:extra', 'token'],
      ['hp1:a:b:c', 'token'],
      ['hp1::once', 'promptId'],
      ['hp1:abc:', 'optionId'],
      ['hp1:abc:once\n', 'optionId'],
      [`hp1:${'x'.repeat(33)}:once`, 'promptId'],
      ['hp1:ab c:once', 'promptId'],
      ['once', 'token'],
    ];
    for (const [token, path] of cases) {
      expect(isPromptCallbackToken(token)).toBe(false);
      expect(() => decodePromptCallback(token)).toThrow(
        expect.objectContaining({ code: 'prompt_callback_malformed' }),
      );
      expect(() => decodePromptCallback(token)).toThrow(
        expect.objectContaining({ code: 'prompt_callback_malformed', path }),
      );
    }
  });

  it('throws nothing but prompt_callback_malformed for any input', () => {
    const tokenish = fc
      .tuple(fc.constantFrom('hp1', 'HP1', ''), fc.string(), fc.string())
      .map((p) => p.join(':'));
    fc.assert(
      fc.property(fc.oneof(fc.string(), tokenish, fc.anything()), (value) => {
        try {
          const { promptId, optionId } = decodePromptCallback(value as string);
          expect(PROMPT_CALLBACK_ID_PATTERN.test(promptId) && PROMPT_CALLBACK_ID_PATTERN.test(optionId)).toBe(
            true,
          );
          expect(isPromptCallbackToken(value)).toBe(true);
        } catch (error) {
          expect(error).toMatchObject({ name: 'RelayError', code: 'prompt_callback_malformed' });
          expect(isPromptCallbackToken(value)).toBe(false);
        }
      }),
      { numRuns: 400 },
    );
  });
});
