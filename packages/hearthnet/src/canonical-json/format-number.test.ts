import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HearthNetLocalError } from '../errors.js';
import { formatCanonicalNumber, isCanonicalNumber } from './canonical-json.js';

// An independent oracle: the exact value of the double as a BigInt fraction, rounded half-even to 6
// significant digits by integer division, then laid out by the %g rules.
function exactFraction(x: number): { numerator: bigint; denominator: bigint } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biasedExponent = Number(bits >> 52n);
  const fraction = bits & ((1n << 52n) - 1n);
  let significand = biasedExponent === 0 ? fraction : fraction | (1n << 52n);
  let exponent = biasedExponent === 0 ? -1074 : biasedExponent - 1075;
  while (exponent < 0 && significand % 2n === 0n && significand > 0n) {
    significand /= 2n;
    exponent++;
  }
  return exponent >= 0
    ? { numerator: significand << BigInt(exponent), denominator: 1n }
    : { numerator: significand, denominator: 1n << BigInt(-exponent) };
}

const pow10 = (n: number): bigint => 10n ** BigInt(n);

function oracle(x: number): string {
  if (x === 0) return '0';
  const sign = x < 0 ? '-' : '';
  const { numerator, denominator } = exactFraction(x);
  if (denominator === 1n && numerator < pow10(16)) return sign + numerator.toString();
  // decimal exponent: 10^e ≤ value < 10^(e+1)
  const ge = (e: number) =>
    e >= 0 ? numerator >= pow10(e) * denominator : numerator * pow10(-e) >= denominator;
  let e = numerator.toString().length - denominator.toString().length;
  while (!ge(e)) e--;
  while (ge(e + 1)) e++;
  const top = numerator * (e <= 5 ? pow10(5 - e) : 1n);
  const bottom = denominator * (e > 5 ? pow10(e - 5) : 1n);
  let q = top / bottom;
  const twiceRemainder = 2n * (top % bottom);
  if (twiceRemainder > bottom || (twiceRemainder === bottom && q % 2n === 1n)) q += 1n;
  if (q === pow10(6)) {
    q = pow10(5);
    e += 1;
  }
  const digits = q.toString().replace(/0+$/, '');
  if (e < -4 || e >= 6) {
    const mantissa = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
    return `${sign}${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  const whole = digits.padEnd(e + 1, '0');
  const integerPart = whole.slice(0, e + 1);
  const fractionPart = whole.slice(e + 1);
  return sign + integerPart + (fractionPart === '' ? '' : `.${fractionPart}`);
}

function fromBits(bits: bigint): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, bits);
  return view.getFloat64(0);
}

function neighbours(x: number): number[] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  return [fromBits(bits - 1n), x, fromBits(bits + 1n)];
}

describe('formatCanonicalNumber', () => {
  it.each([
    // reference note §1 worked examples
    [Math.PI, '3.14159'],
    [0.30000000000000004, '0.3'],
    [123456.789, '123457'],
    [999999.5, '1e+06'],
    [1234567.5, '1.23457e+06'],
    [0.000123456789, '0.000123457'],
    [5e-324, '4.94066e-324'],
    [1.7976931348623157e308, '1.79769e+308'],
    [1e-7, '1e-07'],
    [1e21, '1e+21'],
    [1e100, '1e+100'],
    [1e16, '1e+16'],
    [1.2345678901234568e16, '1.23457e+16'],
    // integral numbers below 1e16 print as integers
    [1.0, '1'],
    [-0, '0'],
    [0, '0'],
    [2 ** 53, '9007199254740992'],
    [1e15, '1000000000000000'],
    [9999999999999998, '9999999999999998'],
    [-9999999999999998, '-9999999999999998'],
    [-1e16, '-1e+16'],
    // fixed versus exponent notation around the thresholds
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [0.000012345, '1.2345e-05'],
    [123456.25, '123456'],
    [99999.95, '99999.9'],
    [0.5, '0.5'],
    [-2.5, '-2.5'],
    [1.5e300, '1.5e+300'],
    [2.2250738585072014e-308, '2.22507e-308'],
    [2.225073858507201e-308, '2.22507e-308'],
  ])('%s → %s', (input, expected) => {
    expect(formatCanonicalNumber(input)).toBe(expected);
    expect(oracle(input)).toBe(expected);
  });

  it.each([
    // exact decimal ties round half to even (toPrecision would round them up)
    [100000.5, '100000'],
    [123456.5, '123456'],
    [123457.5, '123458'],
    [10000.25, '10000.2'],
    [1000.125, '1000.12'],
    [100.0625, '100.062'],
    [-123456.5, '-123456'],
    [-123457.5, '-123458'],
    [0.1015625, '0.101562'],
    [0.0009765625, '0.000976562'],
    [12345650000000000, '1.23456e+16'],
    [12345750000000000, '1.23458e+16'],
    [999999.5, '1e+06'],
  ])('tie %s → %s', (input, expected) => {
    expect(formatCanonicalNumber(input)).toBe(expected);
  });

  it('prints bigints as their digits', () => {
    expect(formatCanonicalNumber(2n ** 64n)).toBe('18446744073709551616');
    expect(formatCanonicalNumber(10n ** 21n)).toBe('1000000000000000000000');
    expect(formatCanonicalNumber(-5n)).toBe('-5');
    expect(formatCanonicalNumber(0n)).toBe('0');
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])('rejects %s', (input) => {
    const error = catchError(() => formatCanonicalNumber(input));
    expect(error).toBeInstanceOf(HearthNetLocalError);
    expect(error).toMatchObject({ code: 'non_finite_number', path: '$' });
  });

  it('rejects what is not a number with a typed error', () => {
    expect(catchError(() => formatCanonicalNumber('1' as unknown as number))).toMatchObject({
      code: 'unsupported_type',
    });
  });

  describe('against the exact BigInt oracle', () => {
    const check = (x: number): void => {
      expect(formatCanonicalNumber(x)).toBe(oracle(x));
    };

    it('agrees on arbitrary bit patterns (all exponents, subnormals included)', () => {
      fc.assert(
        fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (bits) => {
          const x = fromBits(bits);
          if (Number.isFinite(x)) check(x);
        }),
        { numRuns: 3000 },
      );
    });

    it('agrees on fast-check doubles and on subnormals', () => {
      fc.assert(fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), check), { numRuns: 2000 });
      fc.assert(
        fc.property(fc.bigInt({ min: 1n, max: 2n ** 52n - 1n }), (bits) => {
          check(fromBits(bits));
        }),
        {
          numRuns: 500,
        },
      );
    });

    it('agrees on constructed exact ties r/2^j = D·10^-j (D has 7 digits, ends in 5)', () => {
      const tie = fc
        .tuple(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 2 ** 24 }))
        .map(([j, seed]) => {
          const step = 5 ** j;
          const low = Math.ceil(1e6 / step);
          const high = Math.floor((1e7 - 1) / step);
          let r = low + (seed % Math.max(1, high - low + 1));
          if (r % 2 === 0) r = r + 1 <= high ? r + 1 : r - 1;
          return { x: r / 2 ** j, digits: r * step };
        })
        .filter(({ digits }) => digits >= 1e6 && digits < 1e7 && digits % 10 === 5);
      fc.assert(
        fc.property(tie, fc.boolean(), ({ x }, negative) => {
          const value = negative ? -x : x;
          expect(exactFraction(value).denominator).not.toBe(1n);
          check(value);
        }),
        { numRuns: 1500 },
      );
    });

    it('agrees on constructed exact ties D·10^k at and above 1e16', () => {
      const tie = fc
        .tuple(fc.integer({ min: 100000, max: 999999 }), fc.integer({ min: 10, max: 14 }))
        .map(([head, k]) => (BigInt(head) * 10n + 5n) * 10n ** BigInt(k))
        .filter((exact) => BigInt(Number(exact)) === exact);
      fc.assert(
        fc.property(tie, (exact) => {
          check(Number(exact));
        }),
        { numRuns: 500 },
      );
    });

    it('agrees next to decimal midpoints and on short binary fractions', () => {
      const midpoint = fc
        .tuple(fc.integer({ min: 100000, max: 999999 }), fc.integer({ min: -330, max: 300 }))
        .map(([head, exponent]) => Number(`${head}5e${exponent}`))
        .filter((x) => Number.isFinite(x) && x > 0);
      fc.assert(
        fc.property(midpoint, (x) => {
          for (const y of neighbours(x)) check(y);
        }),
        { numRuns: 1500 },
      );
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 40 }), fc.integer({ min: 0, max: 30 }), (n, j) => {
          check(n / 2 ** j);
        }),
        { numRuns: 1500 },
      );
    });
  });
});

describe('isCanonicalNumber', () => {
  it.each([
    [0, true],
    [1, true],
    [-42, true],
    [2 ** 53, true],
    [9999999999999998, true],
    [0.5, true],
    [1.23456, true],
    [1e16, true],
    [1.23457e16, true],
    [4.94066e-324, true],
    [1234570, true],
    [-0, false],
    [Math.PI, false],
    [0.30000000000000004, false],
    [1234567.5, false],
    [1.2345678901234568e16, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
  ])('%s → %s', (input, expected) => {
    expect(isCanonicalNumber(input)).toBe(expected);
  });

  it('is true for every bigint and false for non-numbers', () => {
    expect(isCanonicalNumber(2n ** 100n)).toBe(true);
    expect(isCanonicalNumber('1' as unknown as number)).toBe(false);
  });

  it('holds exactly when the canonical form reads back as the same number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(isCanonicalNumber(x)).toBe(Object.is(Number(formatCanonicalNumber(x)), x));
        expect(isCanonicalNumber(Number(formatCanonicalNumber(x)))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}
