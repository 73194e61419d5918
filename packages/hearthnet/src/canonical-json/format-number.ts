import { HearthNetLocalError } from '../errors.js';

// The number rule of the reference `canonical_json`: Python writes a float with `repr`, and the
// reference re-emits every float token as an integer when it is integral and `repr` used no exponent
// (|v| < 1e16), and as C `%g` (6 significant digits) otherwise. A JavaScript number cannot tell
// `1` from `1.0`, and both print as `1`, so the rule depends only on the value.

/** Integral numbers below this magnitude print as plain integer digits. */
const INTEGER_DIGITS_LIMIT = 1e16;

/**
 * An exact decimal tie at the 7th significant digit is D·10^k with D a 7-digit integer ending in 5.
 * For k < 0 it is a binary fraction only if 5^-k divides D, so -k ≤ 10 and the value times 2^10 is an
 * integer; for k ≥ 0 it is an integer below 10^7·10^14 (beyond that D·5^k exceeds 53 bits). Any other
 * number has no tie, and `toExponential` (exact rounding, ties away from zero) is already right.
 */
const TIE_SCALE = 1024;
const TIE_SCALE_POW5 = 9765625n; // 5^10: N/2^10 = N·5^10/10^10
const TIE_SCALE_DIGITS = 10;
const TIE_LIMIT = 1e21;
const SIGNIFICANT_DIGITS = 6;

/** 10^0 … 10^22, the powers of ten a double holds exactly. */
const POWERS_OF_TEN: readonly number[] = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
/** Exponents for which 10^|5 − X| (and its neighbours) stays within {@link POWERS_OF_TEN}. */
const MIN_SCALED_EXPONENT = -16;
const MAX_SCALED_EXPONENT = 26;
/** Scaled values this close to a midpoint take the exact path; the scaling error is below 10^-10. */
const MIDPOINT_GUARD = 1e-6;

/**
 * Writes a number as HearthNet canonical JSON writes it: integral numbers below 1e16 as integer digits
 * (`-0` as `0`), every other finite number as C `%g` with 6 significant digits, rounded half-even on
 * the exact binary value; a bigint as its digits.
 *
 * @throws {HearthNetLocalError} `non_finite_number` for NaN and ±Infinity, `unsupported_type` when
 *   `n` is neither a number nor a bigint.
 * @example
 * formatCanonicalNumber(3.141592653589793); // '3.14159'
 * formatCanonicalNumber(123456.5); // '123456' (half-even)
 * formatCanonicalNumber(1e16); // '1e+16'
 * formatCanonicalNumber(2n ** 64n); // '18446744073709551616'
 */
export function formatCanonicalNumber(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  if (typeof n !== 'number') {
    throw new HearthNetLocalError('unsupported_type', `expected a number or a bigint, got ${typeof n} at $`, {
      path: '$',
    });
  }
  if (Number.isInteger(n) && n < INTEGER_DIGITS_LIMIT && n > -INTEGER_DIGITS_LIMIT) return `${n}`;
  if (!Number.isFinite(n)) {
    throw new HearthNetLocalError('non_finite_number', `${n} has no JSON form at $`, { path: '$' });
  }
  return formatGeneral(n);
}

/**
 * Whether a number survives canonical JSON unchanged: `Number(formatCanonicalNumber(n))` is `n`.
 * True for every bigint and for integral numbers below 1e16; false for `-0` (written as `0`), for
 * floats with more than 6 significant digits, and for NaN, ±Infinity and non-numbers.
 */
export function isCanonicalNumber(n: number | bigint): boolean {
  if (typeof n === 'bigint') return true;
  if (typeof n !== 'number' || !Number.isFinite(n)) return false;
  if (Number.isInteger(n) && n < INTEGER_DIGITS_LIMIT && n > -INTEGER_DIGITS_LIMIT) return !Object.is(n, -0);
  return Number(formatGeneral(n)) === n;
}

/**
 * C `%g` with precision 6 for a finite, non-zero number: round the exact value half-even to 6
 * significant digits; with X the decimal exponent after rounding, write fixed notation when
 * −4 ≤ X < 6 and `d.ddddde±XX` otherwise, dropping trailing zeros and a trailing point.
 */
export function formatGeneral(x: number): string {
  const negative = x < 0;
  const magnitude = negative ? -x : x;
  const text = formatScaled(magnitude) ?? formatByExponential(magnitude);
  return negative ? `-${text}` : text;
}

/**
 * The fast path: scale to [10^5, 10^6) with one multiplication or division by an exact power of ten
 * (relative error ≤ 2^-53, under 10^-10 absolute) and round. Returns `undefined` when the scaled value
 * is too close to a rounding midpoint to decide, or the power of ten would not be exact.
 */
function formatScaled(magnitude: number): string | undefined {
  let exponent = Math.floor(Math.log10(magnitude)); // may be off by one near powers of ten
  if (exponent < MIN_SCALED_EXPONENT || exponent > MAX_SCALED_EXPONENT) return undefined;
  let scaled = scaleToSixDigits(magnitude, exponent);
  if (scaled < 1e5) scaled = scaleToSixDigits(magnitude, --exponent);
  else if (scaled >= 1e6) scaled = scaleToSixDigits(magnitude, ++exponent);
  const whole = Math.floor(scaled);
  const fraction = scaled - whole;
  if (fraction > 0.5 - MIDPOINT_GUARD && fraction < 0.5 + MIDPOINT_GUARD) return undefined;
  let digits = fraction > 0.5 ? whole + 1 : whole;
  if (digits === 1e6) {
    digits = 1e5;
    exponent++;
  }
  // digits/10^k has at most 6 significant digits, so its shortest round-trip form is exactly those
  // digits without trailing zeros; JavaScript writes it in fixed notation from 1e-7 up to 1e21.
  if (exponent >= -4 && exponent < SIGNIFICANT_DIGITS) return `${digits / POWERS_OF_TEN[5 - exponent]!}`;
  const absolute = exponent < 0 ? -exponent : exponent;
  return `${digits / 1e5}e${exponent < 0 ? '-' : '+'}${absolute < 10 ? '0' : ''}${absolute}`;
}

function scaleToSixDigits(magnitude: number, exponent: number): number {
  const shift = 5 - exponent;
  return shift >= 0 ? magnitude * POWERS_OF_TEN[shift]! : magnitude / POWERS_OF_TEN[-shift]!;
}

/** The exact path, for numbers outside the fast path's range and for near-midpoints. */
function formatByExponential(magnitude: number): string {
  if (magnitude < TIE_LIMIT && Number.isInteger(magnitude * TIE_SCALE) && isSeventhDigitFive(magnitude)) {
    return formatExactDyadic(magnitude);
  }
  // "d.ddddde±X": exactly rounded to 6 digits; differs from %g only on exact ties, excluded above.
  const exponential = magnitude.toExponential(SIGNIFICANT_DIGITS - 1);
  return layoutGeneral(exponential[0]! + exponential.slice(2, 7), Number(exponential.slice(8)));
}

function isSeventhDigitFive(magnitude: number): boolean {
  // "d.dddddde±X": index 7 is the 7th significant digit, rounded; an exact tie shows it as 5.
  return magnitude.toExponential(SIGNIFICANT_DIGITS).charCodeAt(7) === 0x35;
}

/** Rounds `magnitude` (an integer multiple of 2^-10) half-even with exact decimal digits. */
function formatExactDyadic(magnitude: number): string {
  const digits = (BigInt(magnitude * TIE_SCALE) * TIE_SCALE_POW5).toString();
  let exponent = digits.length - 1 - TIE_SCALE_DIGITS;
  let head = Number(digits.slice(0, SIGNIFICANT_DIGITS).padEnd(SIGNIFICANT_DIGITS, '0'));
  const rest = digits.slice(SIGNIFICANT_DIGITS);
  const first = rest.charCodeAt(0);
  const aboveHalf = first > 0x35 || (first === 0x35 && /[1-9]/.test(rest.slice(1)));
  const exactHalf = first === 0x35 && !aboveHalf;
  if (aboveHalf || (exactHalf && head % 2 === 1)) {
    head += 1;
    if (head === 10 ** SIGNIFICANT_DIGITS) {
      head /= 10;
      exponent += 1;
    }
  }
  return layoutGeneral(`${head}`, exponent);
}

/** Lays out 6 significant digits with decimal exponent `exponent` as `%g` does. */
function layoutGeneral(sixDigits: string, exponent: number): string {
  let end = sixDigits.length;
  while (end > 1 && sixDigits.charCodeAt(end - 1) === 0x30) end--;
  const digits = end === sixDigits.length ? sixDigits : sixDigits.slice(0, end);
  if (exponent < -4 || exponent >= SIGNIFICANT_DIGITS) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const absolute = exponent < 0 ? -exponent : exponent;
    return `${mantissa}e${exponent < 0 ? '-' : '+'}${absolute < 10 ? '0' : ''}${absolute}`;
  }
  if (exponent < 0) return `0.${'0'.repeat(-exponent - 1)}${digits}`;
  const integerLength = exponent + 1;
  if (digits.length <= integerLength) return digits + '0'.repeat(integerLength - digits.length);
  return `${digits.slice(0, integerLength)}.${digits.slice(integerLength)}`;
}
