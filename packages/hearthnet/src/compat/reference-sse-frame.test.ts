import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeReferenceSseFrame, PythonFloat } from './reference-json.js';

const FRAME = /^(?:event: ([^\r\n]+)\n)?data: ([\x20-\x7e]*)\n\n$/;

describe('encodeReferenceSseFrame', () => {
  it('writes the data line, with an event line before it when a name is given', () => {
    expect(encodeReferenceSseFrame({ done: true }, 'done')).toBe('event: done\ndata: {"done":true}\n\n');
    expect(encodeReferenceSseFrame({ text: 'Hallo', n: 3 })).toBe('data: {"text":"Hallo","n":3}\n\n');
    expect(encodeReferenceSseFrame({ done: true }, '')).toBe('data: {"done":true}\n\n');
  });

  it('keeps insertion order and writes Python float repr and ASCII escapes', () => {
    expect(
      encodeReferenceSseFrame({
        z: { b: 1, a: new PythonFloat(1) },
        tiny: 1e-7,
        big: new PythonFloat(1e16),
        s: 'Grüße 🌻\u007f',
      }),
    ).toBe(
      'data: {"z":{"b":1,"a":1.0},"tiny":1e-07,"big":1e+16,"s":"Gr\\u00fc\\u00dfe \\ud83c\\udf3b\\u007f"}\n\n',
    );
  });

  it('frames any JSON value as one ASCII data line whose JSON reads back as the value', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.option(
          fc.string({ minLength: 1 }).filter((name) => !/[\r\n]/.test(name)),
          { nil: undefined },
        ),
        (value, event) => {
          const match = FRAME.exec(encodeReferenceSseFrame(value, event));
          expect(match).not.toBeNull();
          expect(match?.[1]).toBe(event);
          expect(JSON.stringify(JSON.parse(match?.[2] ?? ''))).toBe(JSON.stringify(value));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses an event name that is not one line of text, and data JSON cannot carry', () => {
    expect(() => encodeReferenceSseFrame({}, 'done\ndata: {}')).toThrow(
      expect.objectContaining({ code: 'invalid_reference_sse_frame' }),
    );
    expect(() => encodeReferenceSseFrame({}, 'a\rb')).toThrow(
      expect.objectContaining({ code: 'invalid_reference_sse_frame' }),
    );
    expect(() => encodeReferenceSseFrame({}, 42 as unknown as string)).toThrow(
      expect.objectContaining({ code: 'invalid_reference_sse_frame' }),
    );
    expect(() => encodeReferenceSseFrame({ n: Number.NaN })).toThrow(
      expect.objectContaining({ code: 'python_json_unencodable' }),
    );
    expect(() => encodeReferenceSseFrame({ f: () => 1 })).toThrow(
      expect.objectContaining({ code: 'python_json_unencodable' }),
    );
  });
});
