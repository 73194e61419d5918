import type { HearthNetError } from '../../capabilities/index.js';

// What a reference node answers for the bus's own refusals (note §6, §19), which a node serving the
// reference wire mirrors: FastAPI's `{"detail": …}` for a body that is not JSON, `missing_capability`
// and `invalid_version` with 400, and `call_error` with 500 when no provider serves the call.

/** The status and body a reference node answers instead of the contract's §5.4 body. */
export interface ReferenceAnswer {
  readonly status: number;
  readonly body: { readonly [key: string]: string };
}

const answers = new WeakMap<HearthNetError, ReferenceAnswer>();

/** Marks `error` as answered, on the reference wire, with `answer`; returns the error. */
export function withReferenceAnswer<E extends HearthNetError>(error: E, answer: ReferenceAnswer): E {
  answers.set(error, answer);
  return error;
}

/** The reference answer `error` was marked with, if any. */
export function referenceAnswerOf(error: HearthNetError): ReferenceAnswer | undefined {
  return answers.get(error);
}

/**
 * A reference node's reading of `version` (`"major.minor"` through Python `int()`, extra parts ignored,
 * a missing minor read as 0): `"1"` and `"1.0.5"` are 1.0. `undefined` when it refuses the text.
 */
export function referenceVersion(version: string): string | undefined {
  const [major, minor = '0'] = version.split('.');
  const integer = (text: string | undefined) =>
    text !== undefined && /^\s*[+-]?\d+\s*$/.test(text) ? Number.parseInt(text.trim(), 10) : undefined;
  const parsedMajor = integer(major);
  const parsedMinor = integer(minor);
  if (parsedMajor === undefined || parsedMinor === undefined || parsedMajor < 0 || parsedMinor < 0) {
    return undefined;
  }
  return `${parsedMajor}.${parsedMinor}`;
}
