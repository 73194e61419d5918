import { decodeHex, isRefusal } from '@agentwire/internal';
import compatFixture from '../../../fixtures/hearthnet/compat.json' with { type: 'json' };
import { assertEqual, assertRejects } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  type FixtureCase,
  readBoolean,
  readFixtureFile,
  readNonNegativeInteger,
  readObject,
  readString,
  readStringArray,
  sinceOf,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase, ConformanceSuite } from '../../suite.js';
import { type CapabilityMembers, memberNeeds, providedCapabilities } from '../capability-members.js';
import { HEARTHNET_COMPAT_SUITE_VERSION, HEARTHNET_SUITE_VERSION } from './suite-version.js';

/** A verdict on a reference-dialect artefact: `signed` for events and snapshots, `reason` when refused. */
export interface CompatVerdict {
  readonly valid: boolean;
  /** Whether a valid artefact carried a signature (events and snapshots; `accept_unsigned` lets `''` pass). */
  readonly signed?: boolean;
  /** Why it was refused, as the fixture names it. */
  readonly reason?: string;
}

/** The facts of a refusal the error cases compare with the fixture's `error`, `reason` and `path`. */
export interface CompatErrorFacts {
  readonly code?: string;
  readonly reason?: string;
  readonly path?: string;
}

/** The content hash a CID case uses: BLAKE3, or SHA-256 (the reference's fallback). */
export type CompatHasher = 'blake3' | 'sha256';

/**
 * The Python reference's own forms (`@agentwire/hearthnet/compat` in agentwire). Every member is
 * optional and enables its cases (capability in brackets). JSON texts are passed as text, because the
 * reference's reading of them (an integer token is an int, a token with a fraction or exponent a float)
 * is part of what is tested.
 */
export interface CompatImplementation {
  /** Python's `repr(float)` of `value` [`float-repr`]. */
  floatRepr?(value: number): string | Promise<string>;
  /** `json.dumps(json.loads(text), separators=(',', ':'), ensure_ascii=True)`, keys in insertion order [`ascii-json`]. */
  asciiJson?(jsonText: string): string | Promise<string>;
  /** The Crockford ULID of a reference event id [`event-id`]. */
  eventIdToUlid?(referenceId: string): string | Promise<string>;
  /** The contract RFC 3339 form of a reference `issued_at` [`timestamp`]. */
  timestampToContract?(reference: string): string | Promise<string>;
  /** The bytes a reference event's signature covers [`event-signing-bytes`]. */
  eventSigningBytes?(eventText: string): Uint8Array | Promise<Uint8Array>;
  /** The `signature` of a reference event signed with the 32-byte `seed` [`sign-event`]. */
  signEvent?(eventText: string, seed: Uint8Array): string | Promise<string>;
  /** Verifies a reference event [`verify-event`]. */
  verifyEvent?(
    eventText: string,
    options: { readonly acceptUnsigned: boolean },
  ): CompatVerdict | Promise<CompatVerdict>;
  /** The unsigned contract envelope of a reference event [`event-to-contract`]. */
  eventToContract?(eventText: string): unknown;
  /** The reference form of an unsigned contract envelope [`event-from-contract`]. */
  eventFromContract?(event: Record<string, unknown>): unknown;
  /** Signs the fields of an invite with the inviter's 32-byte `seed` [`make-invite`]. */
  makeInvite?(input: Record<string, unknown>, seed: Uint8Array): unknown;
  /** The `hn1:` blob of an invite [`encode-invite`]. */
  encodeInvite?(invite: Record<string, unknown>): string | Promise<string>;
  /** The invite in an `hn1:` blob, not verified [`decode-invite`]. */
  decodeInvite?(blob: string): unknown;
  /** Verifies an invite at `now` (the reference's time string) [`verify-invite`]. */
  verifyInvite?(
    invite: Record<string, unknown>,
    options: { readonly now: string },
  ): CompatVerdict | Promise<CompatVerdict>;
  /** The reference library's node-manifest checks at `now` (ms) [`verify-node-manifest`]. */
  verifyNodeManifest?(
    manifest: Record<string, unknown>,
    options: { readonly now: number },
  ): CompatVerdict | Promise<CompatVerdict>;
  /** The reference library's community-manifest checks at `now` (ms) [`verify-community-manifest`]. */
  verifyCommunityManifest?(
    manifest: Record<string, unknown>,
    options: { readonly now: number },
  ): CompatVerdict | Promise<CompatVerdict>;
  /**
   * The contract node manifest of a reference one; `schemaHashes` maps `name@version` to the hash of a
   * capability the manifest gives none for [`manifest-to-contract`].
   */
  manifestToContract?(
    manifest: Record<string, unknown>,
    schemaHashes: Readonly<Record<string, string>>,
  ): unknown;
  /** The bytes a reference snapshot's signature covers [`snapshot-signing-bytes`]. */
  snapshotSigningBytes?(snapshotText: string): Uint8Array | Promise<Uint8Array>;
  /** The `signature` of a reference snapshot signed with the 32-byte `seed` [`sign-snapshot`]. */
  signSnapshot?(snapshotText: string, seed: Uint8Array): string | Promise<string>;
  /** Verifies a reference snapshot [`verify-snapshot`]. */
  verifySnapshot?(
    snapshotText: string,
    options: { readonly acceptUnsigned: boolean },
  ): CompatVerdict | Promise<CompatVerdict>;
  /** The reference's SSE frame of the JSON `dataText` under the event name `event` [`sse-frame`]. */
  sseFrame?(dataText: string, event: string | undefined): string | Promise<string>;
  /** The reference's blob-manifest content id [`manifest-cid`]. */
  manifestCid?(manifest: Record<string, unknown>, hasher: CompatHasher): string | Promise<string>;
  /** The blob CID of chunk ids [`blob-cid`]. */
  blobCid?(chunkCids: readonly string[], hasher: CompatHasher): string | Promise<string>;
  /** The code, reason and path of a refusal; when given, the error cases compare them with the fixture. */
  errorFacts?(error: unknown): CompatErrorFacts;
}

type Member = Exclude<keyof CompatImplementation, 'errorFacts'>;

/** The capability each member declares. */
const CAPABILITIES: Readonly<Record<Member, string>> = {
  floatRepr: 'float-repr',
  asciiJson: 'ascii-json',
  eventIdToUlid: 'event-id',
  timestampToContract: 'timestamp',
  eventSigningBytes: 'event-signing-bytes',
  signEvent: 'sign-event',
  verifyEvent: 'verify-event',
  eventToContract: 'event-to-contract',
  eventFromContract: 'event-from-contract',
  makeInvite: 'make-invite',
  encodeInvite: 'encode-invite',
  decodeInvite: 'decode-invite',
  verifyInvite: 'verify-invite',
  verifyNodeManifest: 'verify-node-manifest',
  verifyCommunityManifest: 'verify-community-manifest',
  manifestToContract: 'manifest-to-contract',
  snapshotSigningBytes: 'snapshot-signing-bytes',
  signSnapshot: 'sign-snapshot',
  verifySnapshot: 'verify-snapshot',
  sseFrame: 'sse-frame',
  manifestCid: 'manifest-cid',
  blobCid: 'blob-cid',
};

/** The same, as the table of the members that provide each capability. */
const COMPAT_MEMBERS: CapabilityMembers<CompatImplementation> = Object.fromEntries(
  Object.entries(CAPABILITIES).map(([member, capability]) => [capability, [member as Member]]),
);

const FIXTURE_NAME = 'hearthnet/compat.json';
const SECTION = 'HearthNet reference dialect (hearthnet-reference.md)';
const SUITE_NAME = 'hearthnet.compat';
const fixture = readFixtureFile(compatFixture, FIXTURE_NAME);

/**
 * The fixture's `b-form` cases (sorted-key ASCII JSON of any value) are left out: no public function
 * of `@agentwire/hearthnet` writes that form for an arbitrary value, so there is nothing to run them
 * against (its package tests keep them). The form itself is still checked through the event and
 * snapshot signing bytes.
 */
const LEFT_OUT = new Set(['b-form']);

/**
 * The Python reference's own forms, from `fixtures/hearthnet/compat.json`: float repr and ASCII JSON,
 * reference event ids and timestamps, reference event signing, verification and conversion to and from
 * the contract envelope, `hn1:` invites, the reference's manifest checks and conversion, snapshot
 * signing and verification, SSE frames, and manifest and blob CIDs. For an implementation that talks
 * to nodes running the Python reference; a contract-only implementation has no use for it.
 *
 * @example
 * ```ts
 * import { referenceEvents, referenceJson } from '@agentwire/hearthnet/compat';
 * const report = await runSuite(
 *   compatSuite({
 *     eventIdToUlid: (id) => referenceEvents.idToUlid(id),
 *     sseFrame: (text, event) => referenceJson.encodeSseFrame(referenceJson.parse(text), event),
 *   }),
 * );
 * ```
 */
export function compatSuite(implementation: CompatImplementation): ConformanceSuite<CompatImplementation> {
  const capabilities = new Set(providedCapabilities(implementation, COMPAT_MEMBERS));
  return {
    name: SUITE_NAME,
    version: HEARTHNET_COMPAT_SUITE_VERSION,
    description: fixture.description,
    cases: fixture.cases.flatMap((entry, index) =>
      LEFT_OUT.has(String(entry['operation'])) ? [] : casesFor(entry, `${FIXTURE_NAME} cases[${index}]`),
    ),
    setup: () => ({ ctx: implementation, capabilities }),
    needs: memberNeeds(COMPAT_MEMBERS, 'CompatImplementation'),
  };
}

type CompatCase = ConformanceCase<CompatImplementation>;
type Call = (impl: CompatImplementation) => unknown;

const utf8 = (bytes: unknown) => (bytes instanceof Uint8Array ? new TextDecoder().decode(bytes) : bytes);

/** A verdict reduced to what the fixture records: `{valid, signed}` or `{valid, reason}`. */
function reduced(verdict: CompatVerdict | undefined, withSigned: boolean): unknown {
  if (verdict === undefined) return undefined;
  if (!verdict.valid) return { valid: false, reason: verdict.reason };
  return withSigned ? { valid: true, signed: verdict.signed } : { valid: true };
}

function casesFor(entry: FixtureCase, location: string): CompatCase[] {
  const id = `${SUITE_NAME}.${entry.id}`;
  const since = sinceOf(entry, location, HEARTHNET_SUITE_VERSION);
  const common = { id, section: SECTION, level: 'required', since } as const;
  const text = (field: string) => readString(entry[field], `${location}.${field}`);
  const object = (field: string) => readObject(entry[field], `${location}.${field}`);
  const seed = () => hexBytes(text('seed'), `${location}.seed`);
  const hasher = (): CompatHasher => (entry['hasher'] === 'sha256' ? 'sha256' : 'blake3');
  const acceptUnsigned = () =>
    'accept_unsigned' in entry ? readBoolean(entry['accept_unsigned'], `${location}.accept_unsigned`) : false;
  /** A case whose call gives `expected`, or throws the fixture's `error` (with `reason` and `path`). */
  const outcome = (member: Member, title: string, call: Call): CompatCase =>
    'error' in entry
      ? refusalCase(entry, location, common, member, title, call)
      : {
          ...common,
          title,
          requires: CAPABILITIES[member],
          run: async (impl) => assertEqual(await call(impl), entry['expected'], 'result'),
        };
  const verdict = (member: Member, title: string, call: Call, withSigned: boolean): CompatCase => ({
    ...common,
    title,
    requires: CAPABILITIES[member],
    run: async (impl) =>
      assertEqual(
        reduced((await call(impl)) as CompatVerdict | undefined, withSigned),
        entry['expected'],
        'verdict',
      ),
  });
  const signingBytes = (member: Member, call: Call): CompatCase => ({
    ...common,
    id: `${id}.signing-bytes`,
    title: `the signing bytes of ${entry.id}`,
    requires: CAPABILITIES[member],
    run: async (impl) => assertEqual(utf8(await call(impl)), text('signing_bytes'), 'signing bytes'),
  });

  switch (entry['operation']) {
    case 'float-repr': {
      const value = floatOfBits(text('bits'), `${location}.bits`);
      return [outcome('floatRepr', `repr of the double ${text('bits')}`, (impl) => impl.floatRepr?.(value))];
    }
    case 'ascii-insertion':
      return [
        outcome('asciiJson', `ASCII JSON in insertion order: ${entry.id}`, (impl) =>
          impl.asciiJson?.(text('json_text')),
        ),
      ];
    case 'event-id-to-ulid':
      return [
        outcome('eventIdToUlid', `ULID of the reference event id ${entry.id}`, (impl) =>
          impl.eventIdToUlid?.(text('reference_id')),
        ),
      ];
    case 'timestamp-to-contract':
      return [
        outcome('timestampToContract', `contract form of the reference timestamp ${entry.id}`, (impl) =>
          impl.timestampToContract?.(text('reference')),
        ),
      ];
    case 'sign-reference-event':
      return [
        'error' in entry
          ? refusalCase(
              entry,
              location,
              { ...common, id: `${id}.signing-bytes` },
              'eventSigningBytes',
              `the signing bytes of ${entry.id}`,
              (impl) => impl.eventSigningBytes?.(text('event_text')),
            )
          : signingBytes('eventSigningBytes', (impl) => impl.eventSigningBytes?.(text('event_text'))),
        outcome('signEvent', `signs the reference event ${entry.id}`, (impl) =>
          impl.signEvent?.(text('event_text'), seed()),
        ),
      ];
    case 'verify-reference-event':
      return [
        verdict(
          'verifyEvent',
          `verifies the reference event ${entry.id}`,
          (impl) => impl.verifyEvent?.(text('event_text'), { acceptUnsigned: acceptUnsigned() }),
          true,
        ),
      ];
    case 'reference-to-contract':
      return [
        outcome('eventToContract', `contract envelope of the reference event ${entry.id}`, (impl) =>
          impl.eventToContract?.(text('event_text')),
        ),
      ];
    case 'contract-to-reference':
      return [
        outcome('eventFromContract', `reference form of the contract event ${entry.id}`, (impl) =>
          impl.eventFromContract?.(structuredClone(object('event'))),
        ),
      ];
    case 'make-invite':
      return [
        outcome('makeInvite', `makes the invite ${entry.id}`, (impl) =>
          impl.makeInvite?.(structuredClone(object('input')), seed()),
        ),
      ];
    case 'encode-invite':
      return [
        outcome('encodeInvite', `hn1 blob of the invite ${entry.id}`, (impl) =>
          impl.encodeInvite?.(structuredClone(object('invite'))),
        ),
      ];
    case 'decode-invite':
      return [
        outcome('decodeInvite', `decodes the hn1 blob ${entry.id}`, (impl) =>
          impl.decodeInvite?.(text('blob')),
        ),
      ];
    case 'verify-invite':
      return [
        verdict(
          'verifyInvite',
          `verifies the invite ${entry.id}`,
          (impl) => impl.verifyInvite?.(structuredClone(object('invite')), { now: text('now') }),
          false,
        ),
      ];
    case 'verify-reference-node-manifest':
    case 'verify-reference-community-manifest': {
      const node = entry['operation'] === 'verify-reference-node-manifest';
      const now = readNonNegativeInteger(entry['now_ms'], `${location}.now_ms`);
      const member: Member = node ? 'verifyNodeManifest' : 'verifyCommunityManifest';
      return [
        verdict(
          member,
          `the reference's ${node ? 'node' : 'community'} manifest checks: ${entry.id}`,
          (impl) =>
            node
              ? impl.verifyNodeManifest?.(structuredClone(object('manifest')), { now })
              : impl.verifyCommunityManifest?.(structuredClone(object('manifest')), { now }),
          false,
        ),
      ];
    }
    case 'reference-manifest-to-contract': {
      const hashes = readObject(entry['schema_hashes'], `${location}.schema_hashes`) as Record<
        string,
        string
      >;
      return [
        outcome('manifestToContract', `contract node manifest of ${entry.id}`, (impl) =>
          impl.manifestToContract?.(structuredClone(object('manifest')), hashes),
        ),
      ];
    }
    case 'snapshot-signing-bytes':
      return [
        'error' in entry
          ? refusalCase(
              entry,
              location,
              common,
              'snapshotSigningBytes',
              `the signing bytes of the snapshot ${entry.id}`,
              (impl) => impl.snapshotSigningBytes?.(text('snapshot_text')),
            )
          : {
              ...common,
              title: `the signing bytes of the snapshot ${entry.id}`,
              requires: CAPABILITIES.snapshotSigningBytes,
              run: async (impl) =>
                assertEqual(
                  utf8(await impl.snapshotSigningBytes?.(text('snapshot_text'))),
                  text('expected'),
                  'signing bytes',
                ),
            },
      ];
    case 'snapshot-sign':
      return [
        signingBytes('snapshotSigningBytes', (impl) => impl.snapshotSigningBytes?.(text('snapshot_text'))),
        outcome('signSnapshot', `signs the snapshot ${entry.id}`, (impl) =>
          impl.signSnapshot?.(text('snapshot_text'), seed()),
        ),
      ];
    case 'snapshot-verify':
      return [
        verdict(
          'verifySnapshot',
          `verifies the snapshot ${entry.id}`,
          (impl) => impl.verifySnapshot?.(text('snapshot_text'), { acceptUnsigned: acceptUnsigned() }),
          true,
        ),
      ];
    case 'sse-frame': {
      const event = 'event' in entry ? text('event') : undefined;
      return [
        outcome('sseFrame', `the reference's SSE frame ${entry.id}`, (impl) =>
          impl.sseFrame?.(text('data_text'), event),
        ),
      ];
    }
    case 'manifest-cid':
      return [
        outcome('manifestCid', `blob manifest CID ${entry.id}`, (impl) =>
          impl.manifestCid?.(structuredClone(object('manifest')), hasher()),
        ),
      ];
    case 'blob-cid': {
      const chunkCids = readStringArray(entry['chunk_cids'], `${location}.chunk_cids`);
      return [outcome('blobCid', `blob CID ${entry.id}`, (impl) => impl.blobCid?.(chunkCids, hasher()))];
    }
    default:
      throw invalidFixtureError(`${location}.operation`, 'expected one of the compat.json operations');
  }
}

function refusalCase(
  entry: FixtureCase,
  location: string,
  common: Pick<CompatCase, 'id' | 'section' | 'level' | 'since'>,
  member: Member,
  title: string,
  call: Call,
): CompatCase {
  const code = readString(entry['error'], `${location}.error`);
  const expected: CompatErrorFacts = {
    code,
    ...('reason' in entry ? { reason: readString(entry['reason'], `${location}.reason`) } : {}),
    ...('path' in entry ? { path: readString(entry['path'], `${location}.path`) } : {}),
  };
  return {
    ...common,
    title: `${title}: refused with ${code}`,
    requires: CAPABILITIES[member],
    run: async (impl) => {
      const error = await assertRejects(async () => call(impl), `${entry.id} must be refused with ${code}`);
      if (!impl.errorFacts) return;
      const facts = impl.errorFacts(error);
      assertEqual(
        {
          code: facts.code,
          ...('reason' in expected ? { reason: facts.reason } : {}),
          ...('path' in expected ? { path: facts.path } : {}),
        },
        expected,
        'refusal',
      );
    },
  };
}

/** The 32-byte seed written as plain hex in compat.json. */
function hexBytes(hex: string, location: string): Uint8Array {
  const bytes = /^(?:[0-9a-f]{2})+$/.test(hex) ? decodeHex(hex) : undefined;
  if (bytes === undefined || isRefusal(bytes)) throw invalidFixtureError(location, 'expected lowercase hex');
  return bytes;
}

/** The IEEE double whose big-endian bits are the 16 hex digits `bits`. */
function floatOfBits(bits: string, location: string): number {
  if (!/^[0-9a-f]{16}$/.test(bits)) throw invalidFixtureError(location, 'expected 16 lowercase hex digits');
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${bits}`));
  return view.getFloat64(0);
}
