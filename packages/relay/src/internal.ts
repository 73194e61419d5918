import { en } from 'zod/locales';
import type * as z from 'zod/mini';

/** Parse options that word zod's issues in English (what zod's classic API does once imported). */
const ENGLISH_ISSUES: z.core.ParseContext<z.core.$ZodIssue> = /* @__PURE__ */ englishIssues();

function englishIssues(): z.core.ParseContext<z.core.$ZodIssue> {
  return { error: en().localeError };
}

/**
 * `schema.safeParse(value)`, with the issues of a failure worded in English. The relay schemas are
 * built with `zod/mini`, which loads no locale (its issues read "Invalid input" unless the application
 * configures one), and the relay's own errors quote the first issue: their messages must not depend on
 * the application's zod setup. A failure is parsed a second time with an English error map rather than
 * every parse passing one: parse options take zod off its fast path (several times slower per frame).
 */
export function safeParseInEnglish<S extends z.ZodMiniType>(
  schema: S,
  value: unknown,
): z.core.util.SafeParseResult<z.output<S>> {
  const result = schema.safeParse(value);
  return result.success ? result : schema.safeParse(value, ENGLISH_ISSUES);
}

/**
 * `promise`, or a rejection with `timeoutError()` once `timeoutMs` have passed first; the timer is
 * cleared either way.
 */
export async function within<T>(
  promise: Promise<T>,
  timeoutMs: number,
  timeoutError: () => Error,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError()), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A promise with its settle functions, for a waiter that something else resolves. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  readonly resolve: (value: T) => void;
  readonly reject: (reason: Error) => void;
}

/**
 * A new {@link Deferred}. A rejection nobody awaits is not reported as unhandled: the waiter may
 * never be asked for.
 */
export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}
