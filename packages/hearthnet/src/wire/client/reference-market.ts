// The reference node's market shapes (note §10, §19): locations are `{lat, lon, label}` — a post with a
// contract `lng` is accepted but never listed — and posts without one carry `"location": null`. In
// reference wire mode the client converts at the boundary, so callers keep the contract's shapes.

type Json = Record<string, unknown>;

/** `input` of a reference `market.post`: the contract location `{lat, lng, label?}` as `{lat, lon, label?}`. */
export function referenceMarketInput(capability: string, input: unknown): unknown {
  if (capability !== 'market.post' || !isObject(input) || !isObject(input['location'])) return input;
  const { lng, ...location } = input['location'];
  if (lng === undefined) return input;
  return { ...input, location: { ...location, lon: lng } };
}

/**
 * A reference answer's posts (`market.list`, `market.search`) in contract shape: `"location": null`
 * dropped, `{lat, lon, label}` as `{lat, lng, label}` (a `label: null` dropped). Anything else is
 * returned as it came.
 */
export function contractMarketAnswer(capability: string, body: unknown): unknown {
  if (!capability.startsWith('market.') || !isObject(body) || !isObject(body['output'])) return body;
  const posts = body['output']['posts'];
  if (!Array.isArray(posts)) return body;
  return { ...body, output: { ...body['output'], posts: posts.map(contractPost) } };
}

function contractPost(post: unknown): unknown {
  if (!isObject(post) || !('location' in post)) return post;
  const { location, ...rest } = post;
  if (location === null) return rest;
  if (!isObject(location) || !('lon' in location)) return post;
  const { lon, label, ...coordinates } = location;
  return { ...rest, location: { ...coordinates, lng: lon, ...(label === null ? {} : { label }) } };
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
