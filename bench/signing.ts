// signPayload / verifyPayload (canonicalise + number normalisation + Ed25519 + libsodium rule checks)
// against raw node:crypto sign/verify of the same canonical bytes with cached KeyObjects, and against
// the floor of issue #22: raw sign / verify of `JSON.stringify` of the same object, the cheapest possible
// serialisation. Goal: the pipeline reaches ≥ 0.85× of that floor.
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { canonicalJson, keyPairFromSeed, signPayload, verifyPayload } from '@agentwire/hearthnet';
import { type BenchOptions, ratio, runGroup } from './harness.js';
import { frame, manifest } from './payloads.js';

const seed = Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + 3) & 0xff);
const keyPair = keyPairFromSeed(seed);
const privateKey = createPrivateKey({
  key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
  format: 'der',
  type: 'pkcs8',
});
const publicKey = createPublicKey({
  key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), keyPair.publicKey]),
  format: 'der',
  type: 'spki',
});

export function benchSigning(options?: BenchOptions) {
  const goals: string[] = [];
  for (const [label, value] of [
    ['300 B frame', frame],
    ['5 KB manifest', manifest],
  ] as const) {
    const message = canonicalJson(value);
    const signed = signPayload(value, keyPair);
    const rawSignature = sign(null, message, privateKey);
    if (!verify(null, message, publicKey, rawSignature) || !verifyPayload(signed, keyPair.publicKey).valid) {
      throw new Error('benchmark self-check failed: signatures do not verify');
    }
    const plainSignature = sign(null, Buffer.from(JSON.stringify(value)), privateKey);
    const results = runGroup(
      `Ed25519 pipeline — ${label} (${message.length} bytes canonical)`,
      'raw node:crypto sign',
      [
        { name: 'raw node:crypto sign', fn: () => sign(null, message, privateKey) },
        {
          name: 'floor: JSON.stringify + raw sign',
          fn: () => sign(null, Buffer.from(JSON.stringify(value)), privateKey),
        },
        { name: 'agentwire signPayload', fn: () => signPayload(value, keyPair) },
        { name: 'raw node:crypto verify', fn: () => verify(null, message, publicKey, rawSignature) },
        {
          name: 'floor: JSON.stringify + raw verify',
          fn: () => verify(null, Buffer.from(JSON.stringify(value)), publicKey, plainSignature),
        },
        { name: 'agentwire verifyPayload', fn: () => verifyPayload(signed, keyPair.publicKey) },
      ],
      options,
    );
    const s = ratio(results, 'agentwire signPayload', 'floor: JSON.stringify + raw sign');
    const v = ratio(results, 'agentwire verifyPayload', 'floor: JSON.stringify + raw verify');
    goals.push(
      `signPayload vs JSON.stringify + raw sign, ${label}: ${s.toFixed(2)}× (goal ≥ 0.85×) ${s >= 0.85 ? 'met' : 'NOT met'}`,
    );
    goals.push(
      `verifyPayload vs JSON.stringify + raw verify, ${label}: ${v.toFixed(2)}× (goal ≥ 0.85×) ${v >= 0.85 ? 'met' : 'NOT met'}`,
    );
  }
  return goals;
}
