import { describe, expect, it } from 'vitest';
import { normalizeOpResult } from './op-result.js';

describe('normalizeOpResult', () => {
  it('keeps a valid result as plain JSON without ambiguous', () => {
    const result = normalizeOpResult('thread_create', {
      success: true,
      thread_id: 't1',
      ambiguous: true,
      extra: 1,
    });
    expect(result).toEqual({ success: true, thread_id: 't1', extra: 1 });
  });

  it.each([
    ['no object', 'send', 'ok', 'returned no result object'],
    ['no success', 'send', { message_id: 'm' }, 'invalid result'],
    ['a mistyped message_id', 'edit', { success: true, message_id: 7 }, 'at $.message_id'],
    ['a non-JSON value', 'react', { success: true, raw_response: new Map() }, 'not JSON'],
  ] as const)('turns %s into a failure naming it', (_name, op, value, text) => {
    const result = normalizeOpResult(op, value);
    expect(result['success']).toBe(false);
    expect(result['error']).toContain(text);
  });
});
