import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pythonFloatRepr } from './python.js';

// repr() of these floats as printed by CPython 3.11; a JavaScript literal of the same text is the
// same double, so pythonFloatRepr must print it back unchanged.
const PYTHON_FLOAT_REPRS = [
  '1.5',
  '-1.5',
  '1e-05',
  '0.0001',
  '0.00012345',
  '123456789012345.6',
  '-1.5e-07',
  '1e-100',
  '5e-324',
  '0.30000000000000004',
  '2.5e-05',
  '3.980498358697587e-249',
  '-1.3701135617873088e-206',
  '6.387016158513563e-12',
  '-3.51527970626667e-203',
  '4.6678633181812096e-36',
  '-3.0536383926309363e-84',
  '3.723975427257312e-09',
  '5.477444657095578e-06',
  '0.0006278897497332314',
  '0.5960116996623266',
  '2059.5871281932655',
  '6803999.731817859',
  '4275923056.694029',
  '3141471703767.915',
];

/** Positional with a fractional part, or one digit, optional fraction and a signed exponent of 2–3 digits. */
const REPR_SHAPE = /^-?(?:\d+\.\d+|\d(?:\.\d+)?e[+-]\d{2,3})$/;

describe('pythonFloatRepr', () => {
  it.each(PYTHON_FLOAT_REPRS)('renders the float %s as repr() does', (repr) => {
    expect(pythonFloatRepr(Number(repr))).toBe(repr);
  });

  it('renders integral floats, signed zero and non-finite floats as repr() does', () => {
    expect(pythonFloatRepr(2)).toBe('2.0');
    expect(pythonFloatRepr(-0)).toBe('-0.0');
    expect(pythonFloatRepr(1e15)).toBe('1000000000000000.0');
    expect(pythonFloatRepr(1e16)).toBe('1e+16');
    expect(pythonFloatRepr(1.7976931348623157e308)).toBe('1.7976931348623157e+308');
    expect(pythonFloatRepr(Number.NaN)).toBe('nan');
    expect(pythonFloatRepr(Infinity)).toBe('inf');
    expect(pythonFloatRepr(-Infinity)).toBe('-inf');
  });

  it('renders every finite number in the repr shape, as a string that parses back to the same number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = pythonFloatRepr(value);
        expect(text).toMatch(REPR_SHAPE);
        expect(Object.is(Number(text), value)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
