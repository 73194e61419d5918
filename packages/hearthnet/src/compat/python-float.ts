/**
 * A Python `float` whose value is integral (`1.0`, `-0.0`, `1e+16`): JavaScript numbers cannot tell
 * `1.0` from `1`, and the reference's event bytes write them differently. `parseReferenceJson` wraps
 * such tokens; non-integral numbers stay plain `number`s (always floats in Python).
 *
 * @example
 * pythonAsciiJson({ a: new PythonFloat(1), b: 1 }, { sortKeys: true }); // '{"a":1.0,"b":1}'
 */
export class PythonFloat {
  readonly value: number;

  constructor(value: number) {
    this.value = value;
  }
}

/**
 * Python's `repr(float)`: the shortest digits that round-trip (the same digits as JavaScript), in
 * exponent notation iff the decimal exponent is below −4 or at least 16, with a two-digit exponent
 * at least, and `.0` after integral fixed values. Non-finite values give `nan`, `inf`, `-inf`.
 *
 * @example
 * pythonFloatRepr(1); // '1.0'
 * pythonFloatRepr(1e16); // '1e+16'
 * pythonFloatRepr(1e-7); // '1e-07'
 */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const [mantissa = '0', exponentText = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const fraction = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const magnitude = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${digits[0]}${fraction}e${exponent < 0 ? '-' : '+'}${magnitude}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  if (digits.length <= exponent + 1) return `${sign}${digits.padEnd(exponent + 1, '0')}.0`;
  return `${sign}${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
}
