/**
 * Python's `repr(float)` (also its `str()`): the shortest digits that read back to the same double,
 * in exponent form below 1e-4 and from 1e16 on (`1e-05`, `1e+16`), otherwise positional with at
 * least one fractional digit (`3.0`, `0.30000000000000004`); `nan`, `inf`, `-inf`, `-0.0`.
 *
 * @example
 * pythonFloatRepr(0.00001); // '1e-05'
 * pythonFloatRepr(2); // '2.0'
 */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const [mantissa = '0', exponentText = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 16) {
    const significand = digits.length > 1 ? `${digits.slice(0, 1)}.${digits.slice(1)}` : digits;
    const exponentSign = exponent < 0 ? '-' : '+';
    return `${sign}${significand}e${exponentSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  const integerPart = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
  const fractionPart = digits.slice(exponent + 1);
  return `${sign}${integerPart}.${fractionPart === '' ? '0' : fractionPart}`;
}
