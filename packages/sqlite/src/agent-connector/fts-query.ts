/** The prefix that hands the rest of a query to FTS5 as written. */
export const RAW_FTS_PREFIX = 'raw:';

/** How a `query` string is searched: nothing to match (list recent entries), or an FTS5 expression. */
export type FtsSearch =
  | { readonly kind: 'recent' }
  | { readonly kind: 'match'; readonly expression: string; readonly raw: boolean };

/**
 * Turns a data-store `query` string into an FTS5 `MATCH` expression, as the reference store does.
 *
 * A plain query is split on white space and every token becomes a quoted phrase (`"` doubled inside), so
 * FTS5 syntax in user text — `OR`, `NOT`, `NEAR`, `*`, `^`, column filters, quotes — is searched for
 * literally and the tokens are ANDed. A token of punctuation only tokenises to nothing and constrains
 * nothing. A query starting with `raw:` passes the rest (trimmed) to FTS5 unchanged, for callers who
 * want its syntax. An empty or white-space-only query — `raw:` with nothing after it included — matches
 * nothing to search, and the store lists its most recent entries instead.
 *
 * @example
 * ftsSearchOf('deploy OR rollback'); // { kind: 'match', expression: '"deploy" "OR" "rollback"', raw: false }
 * ftsSearchOf('raw:deploy OR rollback'); // { kind: 'match', expression: 'deploy OR rollback', raw: true }
 */
export function ftsSearchOf(query: string): FtsSearch {
  if (query.startsWith(RAW_FTS_PREFIX)) {
    const expression = query.slice(RAW_FTS_PREFIX.length).trim();
    return expression === '' ? { kind: 'recent' } : { kind: 'match', expression, raw: true };
  }
  const tokens = query.split(/\s+/).filter((token) => token !== '');
  if (tokens.length === 0) return { kind: 'recent' };
  const expression = tokens.map((token) => `"${token.replaceAll('"', '""')}"`).join(' ');
  return { kind: 'match', expression, raw: false };
}
