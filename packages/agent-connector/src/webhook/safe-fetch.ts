import type { WebhookFetch } from './options.js';

/** The most redirects one request follows; the next one fails it. */
export const MAX_REDIRECTS = 5;

/** What {@link fetchSameOrigin} ends with: the final answer, or the redirect it did not follow. */
export type Followed =
  | { readonly response: Response; readonly url: string }
  | { readonly refused: string; readonly status: number | null };

/**
 * Sends `init` to `url` with `redirect: 'manual'`, following a 307 / 308 only when its `Location`,
 * resolved against the request URL, has the same origin (scheme, host, port): the same method, headers
 * and body go there, at most {@link MAX_REDIRECTS} times. Any other 3xx — another origin, a 301 / 302 / 303
 * (`fetch` would resend it as a GET without the body), a missing or invalid `Location`, one hop too many,
 * an opaque redirect — is returned as `refused` (its words name the status and the redacted URLs) with its
 * body cancelled: nothing ever reaches another origin. A rejection of `fetch` is rethrown through
 * {@link redactError}; `url` in the result is the URL that gave the final answer.
 */
export async function fetchSameOrigin(
  fetch: WebhookFetch,
  url: string,
  init: RequestInit,
): Promise<Followed> {
  for (let hops = 0; ; hops += 1) {
    let response: Response;
    try {
      response = await fetch(url, { ...init, redirect: 'manual' });
    } catch (error) {
      throw redactError(error, url);
    }
    const { status } = response;
    const opaque = response.type === 'opaqueredirect';
    if (!opaque && (status < 300 || status > 399)) return { response, url };
    response.body?.cancel().catch(() => undefined);
    if (opaque) {
      return {
        refused: `opaque redirect from ${redactUrl(url)} not followed (this fetch hides its Location)`,
        status: null,
      };
    }
    const from = `HTTP ${status} from ${redactUrl(url)}`;
    const location = response.headers.get('Location');
    if (location === null) return { refused: `${from}: redirect without a Location`, status };
    const target = resolve(location, url);
    const refuse = (why: string) => ({
      refused: `${from}: redirect to ${redactUrl(target ?? location)} not followed (${why})`,
      status,
    });
    if (target === undefined) return refuse('not a URL');
    if (status !== 307 && status !== 308) return refuse('only 307 and 308 keep the method and body');
    const origin = originOf(target);
    if (origin === undefined || origin !== originOf(url)) return refuse('another origin');
    if (hops >= MAX_REDIRECTS) return refuse(`more than ${MAX_REDIRECTS} redirects`);
    url = target;
  }
}

/**
 * `url` as messages show it: verbatim when it carries no credentials; otherwise with its `user:password@`
 * (or `user@`) part replaced by `***@` — `https://***@agents.example/perry`. A string that does not parse
 * as a URL loses everything between its scheme and its last `@`.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/^([a-z][a-z\d+.-]*:[/\\]*)?.*@/is, '$1***@');
  }
  if (parsed.username === '' && parsed.password === '') return url;
  parsed.username = '***';
  parsed.password = '';
  return parsed.href;
}

/** A `scheme://userinfo@` in free text; the userinfo runs to the last `@` before the path. */
const USERINFO_IN_TEXT = /\b([a-z][a-z\d+.-]*:\/\/)[^\s/\\?#]*@/gi;

/** `text` with `url` (as given or as parsed) redacted, and the credentials of any other URL in it masked. */
function redactText(text: string, url: string): string {
  const masked = redactUrl(url);
  let out = text;
  if (masked !== url) {
    const href = resolve(url, undefined);
    for (const form of href === undefined ? [url] : [url, href]) out = out.split(form).join(masked);
  }
  return out.replace(USERINFO_IN_TEXT, '$1***@');
}

/**
 * `error` itself when `url` carries no credentials. Otherwise a stand-in `Error` with the same `name`,
 * `code`, message and stack, redacted, and a redacted stand-in for each of (up to five) causes: a fetch
 * rejection may quote the URL it was given (undici: `Request cannot be constructed from a URL that includes
 * credentials: …`, `Failed to parse URL from …` with the URL as the cause's `input`).
 */
function redactError(error: unknown, url: string, depth = 0): unknown {
  if (redactUrl(url) === url) return error;
  if (!(error instanceof Error)) return redactText(String(error), url);
  const cause =
    error.cause === undefined || depth >= 4 ? undefined : redactError(error.cause, url, depth + 1);
  const copy = new Error(redactText(error.message, url), cause === undefined ? undefined : { cause });
  copy.name = error.name;
  copy.stack = redactText(error.stack ?? `${error.name}: ${error.message}`, url);
  const { code } = error as { readonly code?: unknown };
  return typeof code === 'string' ? Object.assign(copy, { code }) : copy;
}

function resolve(location: string, base: string | undefined): string | undefined {
  try {
    return new URL(location, base).href;
  } catch {
    return undefined;
  }
}

/** The URL's origin; `undefined` for an opaque one (`null`), which is never the same as another. */
function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
