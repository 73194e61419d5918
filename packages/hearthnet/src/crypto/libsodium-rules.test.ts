import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bigIntToLittleEndian,
  FIELD_PRIME,
  GROUP_ORDER,
  littleEndianToBigInt,
  Point,
  torsionPoints,
} from './curve-test-support.js';
import {
  hasSmallOrderEncoding,
  isCanonicalPointEncoding,
  isCanonicalScalar,
  passesLibsodiumPrechecks,
} from './ed25519.js';

/** Every encoding below 2^255 of the y of a small-order point, derived from the curve. */
function derivedSmallOrderEncodings(): Set<string> {
  const out = new Set<string>();
  for (const point of torsionPoints()) {
    const y = point.y;
    for (const candidate of [y, y + FIELD_PRIME]) {
      if (candidate < 1n << 255n) out.add(Buffer.from(bigIntToLittleEndian(candidate)).toString('hex'));
    }
  }
  return out;
}

const withSignBit = (bytes: Uint8Array): Uint8Array => {
  const copy = bytes.slice();
  copy[31]! |= 0x80;
  return copy;
};

describe('small-order blocklist', () => {
  const derived = derivedSmallOrderEncodings();

  it('has the 7 encodings derived from the eight torsion points', () => {
    expect(derived.size).toBe(7);
    for (const hex of derived) {
      const bytes = Uint8Array.from(Buffer.from(hex, 'hex'));
      expect(hasSmallOrderEncoding(bytes), hex).toBe(true);
      expect(hasSmallOrderEncoding(withSignBit(bytes)), `${hex} with sign bit`).toBe(true);
    }
  });

  it('flags every torsion point encoding and nothing else', () => {
    for (const point of torsionPoints()) expect(hasSmallOrderEncoding(point.toBytes())).toBe(true);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const masked = bytes.slice();
        masked[31]! &= 0x7f;
        expect(hasSmallOrderEncoding(bytes)).toBe(derived.has(Buffer.from(masked).toString('hex')));
      }),
      { numRuns: 2000 },
    );
  });

  it('does not flag points of large order, nor mixed-order points', () => {
    const [, order8] = torsionPoints();
    const point = Point.BASE.multiply(12345n);
    expect(hasSmallOrderEncoding(point.toBytes())).toBe(false);
    expect(hasSmallOrderEncoding(point.add(order8!).toBytes())).toBe(false);
  });

  it('reads 32 bytes at an offset', () => {
    const signature = new Uint8Array(64);
    signature[0] = 1; // R = identity
    expect(hasSmallOrderEncoding(signature, 0)).toBe(true);
    signature[32] = 5;
    expect(hasSmallOrderEncoding(signature, 32)).toBe(false);
  });
});

describe('isCanonicalScalar', () => {
  it('accepts exactly S < L', () => {
    const edges = [
      0n,
      1n,
      GROUP_ORDER - 1n,
      GROUP_ORDER,
      GROUP_ORDER + 1n,
      (1n << 253n) - 1n,
      (1n << 256n) - 1n,
    ];
    for (const s of edges) expect(isCanonicalScalar(bigIntToLittleEndian(s)), `${s}`).toBe(s < GROUP_ORDER);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }), (s) => {
        expect(isCanonicalScalar(bigIntToLittleEndian(s))).toBe(s < GROUP_ORDER);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('isCanonicalPointEncoding', () => {
  it('accepts exactly y < p, whatever the sign bit', () => {
    const edges = [0n, FIELD_PRIME - 1n, FIELD_PRIME, FIELD_PRIME + 18n, (1n << 255n) - 1n];
    const yArb = fc.oneof(
      fc.constantFrom(...edges),
      fc.bigInt({ min: FIELD_PRIME - 40n, max: (1n << 255n) - 1n }),
      fc.bigInt({ min: 0n, max: (1n << 255n) - 1n }),
    );
    fc.assert(
      fc.property(yArb, fc.boolean(), (y, sign) => {
        const bytes = bigIntToLittleEndian(y);
        if (sign) bytes[31]! |= 0x80;
        expect(isCanonicalPointEncoding(bytes)).toBe(y < FIELD_PRIME);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('passesLibsodiumPrechecks', () => {
  const publicKey = Point.BASE.multiply(777n).toBytes();
  const validLooking = (): Uint8Array => {
    const signature = new Uint8Array(64);
    signature.set(Point.BASE.multiply(555n).toBytes());
    signature.set(bigIntToLittleEndian(999n), 32);
    return signature;
  };

  it('lets a well-formed signature and key through', () => {
    expect(passesLibsodiumPrechecks(validLooking(), publicKey)).toBe(true);
  });

  it('refuses each rule on its own', () => {
    expect(passesLibsodiumPrechecks(validLooking().subarray(0, 63), publicKey)).toBe(false);
    expect(passesLibsodiumPrechecks(new Uint8Array(65), publicKey)).toBe(false);
    expect(passesLibsodiumPrechecks(validLooking(), publicKey.subarray(0, 31))).toBe(false);

    const sPlusL = validLooking();
    sPlusL.set(bigIntToLittleEndian(littleEndianToBigInt(sPlusL.subarray(32)) + GROUP_ORDER), 32);
    expect(passesLibsodiumPrechecks(sPlusL, publicKey)).toBe(false);

    const smallR = validLooking();
    smallR.set(torsionPoints()[3]!.toBytes(), 0);
    expect(passesLibsodiumPrechecks(smallR, publicKey)).toBe(false);

    const nonCanonicalR = validLooking();
    nonCanonicalR.set(bigIntToLittleEndian(FIELD_PRIME + 3n), 0);
    expect(passesLibsodiumPrechecks(nonCanonicalR, publicKey)).toBe(false);

    expect(passesLibsodiumPrechecks(validLooking(), bigIntToLittleEndian(FIELD_PRIME + 3n))).toBe(false);
    expect(passesLibsodiumPrechecks(validLooking(), torsionPoints()[5]!.toBytes())).toBe(false);
    expect(passesLibsodiumPrechecks(validLooking(), withSignBit(bigIntToLittleEndian(1n)))).toBe(false);
  });
});
