import { describe, expect, it } from 'vitest';
import { newRequestId } from './transport.js';

describe('newRequestId', () => {
  it('is a dashless UUID4 in lowercase hex, like uuid4().hex', () => {
    for (let i = 0; i < 50; i += 1) {
      const id = newRequestId();
      expect(id).toMatch(/^[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
    }
  });

  it('does not repeat', () => {
    const ids = new Set(Array.from({ length: 1000 }, newRequestId));
    expect(ids.size).toBe(1000);
  });
});
