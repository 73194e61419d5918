/**
 * The headers a forward carries: `content-type` (the forwarded body's), then those of `names` the
 * request has, lower-case, in that order. An allow-list on purpose: signature headers (which sign
 * bytes the gateway no longer gets, and would let it replay the request to the edge),
 * `Authorization` (Twilio's basic-auth webhook credentials), cookies and whatever a proxy in front
 * adds never leave the edge.
 */
export function forwardHeaders(
  headers: Headers,
  contentType: string,
  names: readonly string[],
): [string, string][] {
  const forwarded: [string, string][] = [['content-type', contentType]];
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) forwarded.push([name, value]);
  }
  return forwarded;
}
