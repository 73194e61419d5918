// What several equivalents files share: mutator groups and the helpers that make one entry per line or
// span. Format of an entry: mutation/equivalents.mjs (`Equivalent`).

/**
 * The mutators that change a diagnostic (a message, a JSON path built from an issue, the details of a
 * refusal) without changing whether a value is refused or with which code.
 */
export const DIAGNOSTIC_MUTATORS = [
  'StringLiteral',
  'ObjectLiteral',
  'ArrayDeclaration',
  'MethodExpression',
  'LogicalOperator',
  'OptionalChaining',
  'ArrowFunction',
  'ConditionalExpression',
  'EqualityOperator',
];

/** Every mutator Stryker applies to an `if` and its condition. */
export const CONDITION_MUTATORS = [
  'ConditionalExpression',
  'LogicalOperator',
  'EqualityOperator',
  'ArithmeticOperator',
  'BlockStatement',
];

/** The mutators that change only a text or an object built for a message. */
export const TEXT_MUTATORS = ['StringLiteral', 'ObjectLiteral'];

/**
 * Entries that share pairs, file, mutators and reason, one per line of code (matched as a part of the line).
 *
 * @param {Omit<import('../equivalents.mjs').Equivalent, 'code'>} common
 * @param {string[]} codes
 * @returns {import('../equivalents.mjs').Equivalent[]}
 */
export function sameReason(common, codes) {
  return codes.map((code) => ({ ...common, code }));
}

/**
 * Entries that share pairs, file, mutators and reason, one per span (a function or block of the file).
 *
 * @param {Omit<import('../equivalents.mjs').Equivalent, 'span'>} common
 * @param {{ from: string, until?: string }[]} spans
 * @returns {import('../equivalents.mjs').Equivalent[]}
 */
export function sameReasonSpans(common, spans) {
  return spans.map((span) => ({ ...common, span }));
}
