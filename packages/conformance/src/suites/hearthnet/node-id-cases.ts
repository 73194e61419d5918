import nodeIdsFixture from '../../../fixtures/hearthnet/node-ids.json' with { type: 'json' };
import { assertEqual, assertRejects, assertTrue } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  type FixtureCase,
  readBoolean,
  readBytes,
  readFixtureFile,
  readString,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase } from '../../suite.js';
import type { CapabilityMembers } from '../capability-members.js';
import { signaturesCaseSince } from './suite-version.js';

/** The node-id functions a signature implementation may offer; each one enables its cases. */
export interface NodeIdImplementation {
  /** `ed25519:` + base64url (no padding) of a 32-byte public key. Capability `node-id`. */
  nodeId?(publicKey: Uint8Array): string | Promise<string>;
  /** The display form `ed25519:XXXX-XXXX-XXXX-X===`. Capability `short-node-id`. */
  shortNodeId?(publicKey: Uint8Array): string | Promise<string>;
  /**
   * The same display form computed from a full node id rather than from the key bytes. Capability
   * `short-node-id-from-node-id`.
   */
  shortNodeIdFromNodeId?(nodeId: string): string | Promise<string>;
  /**
   * The public key a full node id names; throws for anything else. `lenient` asks for the Python
   * reference's forgiving base64url decoding. Capability `parse-node-id`.
   */
  parseNodeId?(nodeId: string, options: { lenient: boolean }): Uint8Array | Promise<Uint8Array>;
  /** The implementation's error code for a rejected input; when given, error cases check it. */
  errorCode?(error: unknown): string | undefined;
  /**
   * The implementation's finer reason for a rejected node id (`missing_prefix`, `wrong_length`, …, the
   * fixture's `reason`). With `parseNodeId`, enables the `recommended` reason cases (capability
   * `node-id-error-reason`).
   */
  errorReason?(error: unknown): string | undefined;
}

const FIXTURE_NAME = 'hearthnet/node-ids.json';
const SECTION = 'HearthNet §1.5';
const fixture = readFixtureFile(nodeIdsFixture, FIXTURE_NAME);

/** The members of a NodeIdImplementation that provide each capability. */
export const NODE_ID_MEMBERS = {
  'node-id': ['nodeId'],
  'short-node-id': ['shortNodeId'],
  'short-node-id-from-node-id': ['shortNodeIdFromNodeId'],
  'parse-node-id': ['parseNodeId'],
  'node-id-error-reason': ['parseNodeId', 'errorReason'],
} as const satisfies CapabilityMembers<NodeIdImplementation>;

/**
 * Cases from `fixtures/hearthnet/node-ids.json`, with ids `<prefix>.node-ids.<fixture id>` and, for a
 * public key, `.short`, `.short-from-node-id` and `.parse`; for a refused id, `.reason`.
 */
export function nodeIdCases<Ctx extends NodeIdImplementation>(prefix: string): ConformanceCase<Ctx>[] {
  return fixture.cases.flatMap((entry, index) =>
    casesFor<Ctx>(prefix, entry, `${FIXTURE_NAME} cases[${index}]`),
  );
}

function casesFor<Ctx extends NodeIdImplementation>(
  prefix: string,
  entry: FixtureCase,
  location: string,
): ConformanceCase<Ctx>[] {
  const id = `${prefix}.node-ids.${entry.id}`;
  const common = { section: SECTION, since: signaturesCaseSince(entry.id) } as const;
  switch (entry['operation']) {
    case 'from_public_key': {
      const publicKey = readBytes(entry['public_key'], `${location}.public_key`);
      const nodeId = readString(entry['node_id'], `${location}.node_id`);
      const cases: ConformanceCase<Ctx>[] = [
        {
          ...common,
          id,
          title: `node id of public key ${entry.id}`,
          level: 'required',
          requires: 'node-id',
          run: async (impl) => assertEqual(await impl.nodeId?.(publicKey), nodeId, 'full node id'),
        },
      ];
      if ('short_node_id' in entry) {
        const shortNodeId = readString(entry['short_node_id'], `${location}.short_node_id`);
        cases.push({
          ...common,
          id: `${id}.short`,
          title: `short (display) node id of public key ${entry.id}`,
          level: 'recommended',
          requires: 'short-node-id',
          run: async (impl) => assertEqual(await impl.shortNodeId?.(publicKey), shortNodeId, 'short node id'),
        });
        cases.push({
          ...common,
          id: `${id}.short-from-node-id`,
          title: `short (display) node id of the full node id ${entry.id}`,
          level: 'recommended',
          requires: 'short-node-id-from-node-id',
          run: async (impl) =>
            assertEqual(await impl.shortNodeIdFromNodeId?.(nodeId), shortNodeId, 'short node id'),
        });
      }
      cases.push({
        ...common,
        id: `${id}.parse`,
        title: `strict parsing of the node id of ${entry.id} gives the public key back`,
        level: 'required',
        requires: 'parse-node-id',
        run: async (impl) => {
          const parsed = await impl.parseNodeId?.(nodeId, { lenient: false });
          assertTrue(parsed instanceof Uint8Array, 'parseNodeId must return a Uint8Array');
          assertEqual(parsed, publicKey, 'public key');
        },
      });
      return cases;
    }
    case 'parse': {
      const nodeId = readString(entry['node_id'], `${location}.node_id`);
      const lenient = readBoolean(entry['lenient'], `${location}.lenient`);
      // Strict parsing is what the SDK does; lenient parsing exists to read ids written by the reference.
      const level = lenient ? 'recommended' : 'required';
      const mode = lenient ? 'lenient' : 'strict';
      if ('error' in entry) {
        const code = readString(entry['error'], `${location}.error`);
        const reason = readString(entry['reason'], `${location}.reason`);
        const rejection = (impl: Ctx) =>
          assertRejects(
            () => impl.parseNodeId?.(nodeId, { lenient }),
            `${mode} parsing must reject ${JSON.stringify(nodeId)}`,
          );
        return [
          {
            ...common,
            id,
            title: `${mode} parsing rejects ${entry.id}`,
            level,
            requires: 'parse-node-id',
            run: async (impl) => {
              const error = await rejection(impl);
              if (impl.errorCode) assertEqual(impl.errorCode(error), code, 'error code');
            },
          },
          {
            ...common,
            id: `${id}.reason`,
            title: `${mode} parsing rejects ${entry.id} for the reason ${reason}`,
            level: 'recommended',
            requires: 'node-id-error-reason',
            run: async (impl) => {
              const error = await rejection(impl);
              assertEqual(impl.errorReason?.(error), reason, 'refusal reason');
            },
          },
        ];
      }
      const publicKey = readBytes(entry['public_key'], `${location}.public_key`);
      return [
        {
          ...common,
          id,
          title: `${mode} parsing of ${entry.id}`,
          level,
          requires: 'parse-node-id',
          run: async (impl) => {
            const parsed = await impl.parseNodeId?.(nodeId, { lenient });
            assertTrue(parsed instanceof Uint8Array, 'parseNodeId must return a Uint8Array');
            assertEqual(parsed, publicKey, 'public key');
          },
        },
      ];
    }
    default:
      throw invalidFixtureError(`${location}.operation`, 'expected "from_public_key" or "parse"');
  }
}
