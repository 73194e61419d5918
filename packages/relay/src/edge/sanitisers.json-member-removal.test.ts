import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { removeTopLevelMembers } from './sanitisers.js';

const TOKEN = new Set(['token']);

describe('removeTopLevelMembers', () => {
  it('cuts the member and one separating comma out, keeping every other character', () => {
    expect(removeTopLevelMembers('{"a":1, "token":"x",\n "b":[2]}', TOKEN)).toEqual({
      text: '{"a":1,\n "b":[2]}',
      removed: 1,
    });
    expect(removeTopLevelMembers('{ "token" : "x" , "b":2 }', TOKEN).text).toBe('{ "b":2 }');
    expect(removeTopLevelMembers('{"a":1,"token":"x"}', TOKEN).text).toBe('{"a":1}');
    expect(removeTopLevelMembers(' {"token":"x"} ', TOKEN).text).toBe(' {} ');
  });

  it('returns the very input when there is nothing to remove', () => {
    const text = '{"a":{"token":"nested"},"b":"\\"token\\"","c":1.50e3}';
    expect(removeTopLevelMembers(text, TOKEN)).toEqual({ text, removed: 0 });
    expect(removeTopLevelMembers('{}', TOKEN)).toEqual({ text: '{}', removed: 0 });
  });

  it('matches keys after unescaping and removes every duplicate', () => {
    const result = removeTopLevelMembers('{"tok\\u0065n":"a","x":"}","token":{"y":[1,"]"]},"z":null}', TOKEN);
    expect(result).toEqual({ text: '{"x":"}","z":null}', removed: 2 });
  });

  it('refuses text that is not a JSON object', () => {
    expect(() => removeTopLevelMembers('[1]', TOKEN)).toThrow(
      expect.objectContaining({ code: 'sanitiser_malformed_payload' }),
    );
    expect(() => removeTopLevelMembers('{"a":', TOKEN)).toThrow(
      expect.objectContaining({ code: 'sanitiser_malformed_payload' }),
    );
    expect(() => removeTopLevelMembers('"token"', TOKEN)).toThrow(
      expect.objectContaining({ code: 'sanitiser_malformed_payload' }),
    );
  });

  it('leaves an object equal to the input minus the removed keys, other members verbatim (property)', () => {
    const member = fc.tuple(fc.string(), fc.jsonValue());
    fc.assert(
      fc.property(
        fc.array(member, { maxLength: 6 }),
        fc.nat(6),
        fc.string(),
        fc.constantFrom('', ' ', '\n  '),
        (members, at, token, space) => {
          const withToken = [...members];
          withToken.splice(Math.min(at, withToken.length), 0, ['token', token]);
          const texts = withToken.map(
            ([key, value]) => `${JSON.stringify(key)}:${space}${JSON.stringify(value)}`,
          );
          const text = `{${space}${texts.join(`,${space}`)}${space}}`;
          const { text: out } = removeTopLevelMembers(text, TOKEN);
          const expected = Object.fromEntries(withToken.filter(([key]) => key !== 'token'));
          expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(expected)));
          let from = 0;
          for (const [i, piece] of texts.entries()) {
            if (withToken[i]![0] === 'token') continue;
            const found = out.indexOf(piece, from);
            expect(found).toBeGreaterThanOrEqual(from);
            from = found + piece.length;
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
