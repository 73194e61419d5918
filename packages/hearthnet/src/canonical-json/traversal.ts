import { HearthNetLocalError, type HearthNetLocalErrorCode } from '../errors.js';
import { formatJsonPath, type JsonPathSegment } from './json-path.js';

/** How many containers (objects and arrays) may enclose one another, the outermost included. */
export const MAX_CANONICAL_DEPTH = 1000;

const LONE_SURROGATE = /\p{Cs}/u;

interface MaybeWellFormed {
  isWellFormed?: () => boolean;
}

/** Whether a string has a UTF-8 form, i.e. holds no lone surrogate. */
export const isWellFormed: (text: string) => boolean =
  typeof (String.prototype as MaybeWellFormed).isWellFormed === 'function'
    ? (text) => (text as MaybeWellFormed).isWellFormed!()
    : (text) => !LONE_SURROGATE.test(text);

/**
 * The state of one walk over a JSON value: the containers being visited (for cycle and depth checks)
 * and the key or index taken at each level, so an error can name its path without the walk building
 * paths as it goes.
 */
export class Traversal {
  private readonly ancestors: object[] = [];
  /** `segments[level]` is the key or index being visited inside the container entered at `level`. */
  readonly segments: JsonPathSegment[] = [];

  /**
   * Enters a container after checking depth and cycles; returns the level whose segment the caller
   * sets for each child.
   */
  enter(container: object): number {
    const level = this.ancestors.length;
    if (level >= MAX_CANONICAL_DEPTH) {
      throw this.error('max_depth', `nesting is deeper than ${MAX_CANONICAL_DEPTH} containers`);
    }
    if (this.ancestors.includes(container)) throw this.error('cycle', 'the value contains itself');
    this.ancestors.push(container);
    return level;
  }

  leave(): void {
    this.ancestors.pop();
  }

  /** The path of the value being visited. */
  path(): string {
    return formatJsonPath(this.segments, this.ancestors.length);
  }

  /** The error of `code` at the value being visited: its message ends with ` at <path>`. */
  error(code: HearthNetLocalErrorCode, message: string): HearthNetLocalError {
    const path = this.path();
    return new HearthNetLocalError(code, `${message} at ${path}`, { path });
  }

  /** Throws unless `text` is well-formed UTF-16. */
  checkString(text: string, what: 'string' | 'key'): void {
    if (!isWellFormed(text)) throw this.error('lone_surrogate', `${what} holds a lone UTF-16 surrogate`);
  }
}

/** What a non-primitive value is, for the walkers. */
export type ContainerKind = 'array' | 'object';

/**
 * Classifies a non-null object: a real array, or a plain object (prototype `Object.prototype` or
 * `null`); anything else (Date, Map, typed arrays, boxed primitives, class instances, array
 * subclasses) is an `unsupported_type` error.
 */
export function containerKind(value: object, traversal: Traversal): ContainerKind {
  const prototype = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (prototype === Array.prototype) return 'array';
  } else if (prototype === Object.prototype || prototype === null) {
    return 'object';
  }
  throw traversal.error('unsupported_type', `${describeObject(value)} is not a plain object or array`);
}

/** The `unsupported_type` error for a primitive JSON cannot carry, or a hole in a sparse array. */
export function unsupportedValue(value: unknown, traversal: Traversal, isHole = false): HearthNetLocalError {
  const description = isHole ? 'a sparse array hole' : typeof value === 'symbol' ? 'a symbol' : typeof value;
  return traversal.error('unsupported_type', `${description} has no JSON form`);
}

function describeObject(value: object): string {
  const maker = (value as { constructor?: unknown }).constructor;
  return typeof maker === 'function' && maker.name !== '' ? `a ${maker.name}` : 'an object';
}
