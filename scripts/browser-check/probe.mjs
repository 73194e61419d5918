// The computation the browser check runs twice, from the same built packages: once bundled for
// headless Chromium, once in Node. It feeds the fixture cases of canonical JSON, payload signatures,
// BLAKE3 hashing, relay frames, session keys and channel tokens through the ROOT entries of
// @agentwire/hearthnet and @agentwire/relay and returns every output (or the error code) as plain
// JSON. It asserts nothing itself: scripts/browser-check/run.mjs compares the two results.
import { decodeFixtureValue } from '@agentwire/conformance';
import {
  blake3Hex,
  blobCid,
  canonicalJsonString,
  chunkBlob,
  contentId,
  defaultEd25519Backend,
  keyPairFromSeed,
  nobleBackend,
  signPayload,
  verifyPayload,
} from '@agentwire/hearthnet';
import {
  buildSessionKey,
  decodeConnectorFrame,
  decodeFrame,
  decodeGatewayFrame,
  encodeFrame,
  FrameDecoder,
  makeToken,
  mintRelayToken,
  peekRelayTokenGatewayId,
  relaySign,
  verifyRelayToken,
} from '@agentwire/relay';
import canonicalJsonText from '../../packages/conformance/fixtures/hearthnet/canonical-json.json';
import hashingText from '../../packages/conformance/fixtures/hearthnet/hashing.json';
import signaturesText from '../../packages/conformance/fixtures/hearthnet/signatures.json';
import framesText from '../../packages/conformance/fixtures/relay/frames.json';
import sessionKeysText from '../../packages/conformance/fixtures/relay/session-keys.json';
import tokensText from '../../packages/conformance/fixtures/relay/tokens.json';

// The fixtures are bundled as text: JavaScript's JSON.parse keeps the lone surrogates some cases carry.
const cases = (text, name) =>
  JSON.parse(text).cases.map((c, i) => decodeFixtureValue(c, `${name} cases[${i}]`));

/** A value as plain JSON, the same in every runtime: bytes as hex, bigints as decimal strings. */
function plain(value) {
  if (value instanceof Uint8Array)
    return { $bytes: Array.from(value, (b) => b.toString(16).padStart(2, '0')).join('') };
  if (typeof value === 'bigint') return { $bigint: value.toString() };
  if (value instanceof Error) return { error: value.code ?? value.name };
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

/** What `compute` returns, or the code of the error it throws. */
function outcome(compute) {
  try {
    return { value: plain(compute()) };
  } catch (error) {
    return { error: error?.code ?? error?.name ?? String(error) };
  }
}

const camelCase = (key) => key.replace(/_([a-z])/g, (_, letter) => letter.toUpperCase());
const camelKeys = (record) => Object.fromEntries(Object.entries(record).map(([k, v]) => [camelCase(k), v]));

function canonicalJsonOutputs() {
  return cases(canonicalJsonText, 'canonical-json').map((c) => ({
    id: c.id,
    ...outcome(() => canonicalJsonString(c.input)),
  }));
}

function signatureOutputs() {
  return cases(signaturesText, 'signatures').map((c) => {
    if (c.operation === 'sign') {
      return {
        id: c.id,
        ...outcome(() => {
          const keyPair = keyPairFromSeed(c.seed);
          const signed = signPayload(c.payload, keyPair);
          return { nodeId: keyPair.nodeId, signed, verified: verifyPayload(signed, keyPair.nodeId) };
        }),
      };
    }
    const key = c.node_id ?? c.public_key;
    return {
      id: c.id,
      ...outcome(() => verifyPayload(c.payload, key, { lenientEncoding: c.lenient_encoding })),
    };
  });
}

function hashingOutputs() {
  const fixtureCases = cases(hashingText, 'hashing').flatMap((c) => {
    if (c.operation === 'blake3') {
      return [{ id: c.id, ...outcome(() => ({ hex: blake3Hex(c.input), contentId: contentId(c.input) })) }];
    }
    if (c.operation === 'blob-cid') return [{ id: c.id, ...outcome(() => blobCid(c.input)) }];
    // chunk-blob cases describe large inputs by a pattern; one small blob below covers chunking.
    return [];
  });
  const blob = Uint8Array.from({ length: 11 }, (_, i) => i);
  return [
    ...fixtureCases,
    { id: 'chunk-11-bytes-by-4', ...outcome(() => chunkBlob(blob, { chunkSizeBytes: 4 })) },
  ];
}

const DECODERS = { gateway: decodeGatewayFrame, connector: decodeConnectorFrame, any: decodeFrame };

function frameOutputs() {
  return cases(framesText, 'frames').map((c) => {
    if (c.operation === 'decode') {
      return {
        id: c.id,
        ...outcome(() => {
          const frame = DECODERS[c.direction](c.line);
          // Re-encoded in both styles: what a decoded frame writes back must agree too.
          return { frame, compact: encodeFrame(frame), python: encodeFrame(frame, { style: 'python' }) };
        }),
      };
    }
    if (c.operation === 'encode')
      return { id: c.id, ...outcome(() => encodeFrame(c.frame, { style: c.style })) };
    return {
      id: c.id,
      ...outcome(() => {
        const decoder = new FrameDecoder(
          c.maxLineBytes === undefined ? {} : { maxLineBytes: c.maxLineBytes },
        );
        const results = [...c.chunks.flatMap((chunk) => decoder.push(chunk)), ...decoder.end()];
        return results.map((r) => (r.ok ? { frame: r.frame } : { error: r.error.code }));
      }),
    };
  });
}

function sessionKeyOutputs() {
  return cases(sessionKeysText, 'session-keys').map((c) => ({
    id: c.id,
    ...outcome(() => buildSessionKey(c.source, camelKeys(c.options ?? {}))),
  }));
}

function tokenOutputs() {
  return cases(tokensText, 'tokens').map((c) => {
    const run = {
      make_token: () => makeToken(c.payload, c.secret, c.ttl_seconds, { now: c.now }),
      make_upgrade_token: () =>
        mintRelayToken(c.gateway_id, c.secret, {
          now: c.now,
          ...(c.ttl_seconds === undefined ? {} : { ttlSeconds: c.ttl_seconds }),
        }),
      sign: () => relaySign(c.message, c.secret),
      verify: () => verifyRelayToken(c.token, c.secrets, { now: c.now, skewSeconds: c.skew_seconds }),
      peek: () => peekRelayTokenGatewayId(c.token),
    }[c.operation];
    return { id: c.id, ...outcome(run) };
  });
}

/**
 * Runs every computation. `outputs` must be identical in every runtime; `runtime` says which Ed25519
 * backend the root entry chose there (noble in a browser, node:crypto in Node).
 */
export function runProbe() {
  return {
    runtime: { ed25519Backend: defaultEd25519Backend() === nobleBackend ? 'noble' : 'node:crypto' },
    outputs: {
      canonicalJson: canonicalJsonOutputs(),
      signatures: signatureOutputs(),
      hashing: hashingOutputs(),
      frames: frameOutputs(),
      sessionKeys: sessionKeyOutputs(),
      tokens: tokenOutputs(),
    },
  };
}
