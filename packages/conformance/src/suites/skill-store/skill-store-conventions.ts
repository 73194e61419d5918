import type { SkillStatus, SkillStore } from '@agentwire/agent-connector';
import { assertEqual, formatValue } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import { readObject, readString } from '../../fixtures/fixture-file.js';
import type { ConformanceCase } from '../../suite.js';
import {
  assertStorageError,
  SKILL_STORE_OPERATIONS,
  STORAGE_CONVENTIONS_SECTION,
  type StorageConventionCase,
  storageConventionCases,
} from './storage-conventions-fixture.js';

/** A skill revision as the change token reads it. */
export interface CatalogRevisionInput {
  readonly name: string;
  readonly status: SkillStatus;
  readonly version: string;
}

/**
 * The skill-store convention helpers of an implementation, checked against
 * `fixtures/agent-connector/storage-conventions.json`. Every member is optional: each one present
 * enables its cases (capability `convention:<member>`), and `@agentwire/agent-connector`'s
 * `storageConventions` kit fits as is. Each must throw an error whose `code` is `storage_validation` for
 * the inputs the fixture refuses.
 */
export interface SkillStoreConventions {
  /** Lowercase hex SHA-256 of the UTF-8 bytes of `body`, as persisted. */
  contentHash?(body: string): string;
  /** `{ content_hash, version }` of `body` at once. */
  contentIdentity?(body: string): { readonly content_hash: string; readonly version: string };
  /** The first 12 hex digits of a content hash; refuses anything but 64 lowercase hex digits. */
  versionFromHash?(hash: string): string;
  /** The `version()` change token of a catalog of `{ name, status, version }` revisions. */
  catalogChangeToken?(skills: readonly CatalogRevisionInput[]): string;
  /** The `# Status:` header of `body` (`{ status, rest }`), or `null` without one. */
  readStatusHeader?(body: string): { readonly status: SkillStatus | null; readonly rest: string } | null;
  /** The status the header of `body` names, else `'Draft'`. */
  statusOfSkill?(body: string): SkillStatus;
  /** `body` with its `# Status:` header rewritten (or inserted) to name `status`. */
  withStatusHeader?(body: string, status: SkillStatus): string;
}

/** The capability a convention member enables. */
function conventionCapability(member: keyof SkillStoreConventions): string {
  return `convention:${member}`;
}

/** The capabilities the members present in `conventions` enable. */
export function skillStoreConventionCapabilities(conventions: SkillStoreConventions | undefined): string[] {
  if (conventions === undefined) return [];
  return (Object.keys(conventions) as (keyof SkillStoreConventions)[])
    .filter((member) => typeof conventions[member] === 'function')
    .map(conventionCapability);
}

/** What a store-level convention case needs of the suite's context: a fresh store per case. */
export interface StoreProvider {
  withStore<T>(body: (store: SkillStore) => Promise<T>): Promise<T>;
}

/** The name the store-level convention cases store their bodies under. */
const CONVENTION_SKILL = 'conformance-convention';

/**
 * The skill-store cases of `storage-conventions.json`: each helper in `conventions` against the fixture
 * (level `required`), and the store itself held to the header rules (level `recommended`): a new skill
 * records the status its header names, and `update_status()` rewrites the body exactly as the fixture
 * says (capability `supports_writes`).
 */
export function skillStoreConventionCases<Ctx extends StoreProvider>(
  suiteName: string,
  conventions: SkillStoreConventions | undefined,
  since: string,
): ConformanceCase<Ctx>[] {
  return storageConventionCases(SKILL_STORE_OPERATIONS).flatMap((testCase) =>
    casesFor<Ctx>(`${suiteName}.conventions.${testCase.entry.id}`, testCase, conventions ?? {}, since),
  );
}

function casesFor<Ctx extends StoreProvider>(
  id: string,
  testCase: StorageConventionCase,
  conventions: SkillStoreConventions,
  since: string,
): ConformanceCase<Ctx>[] {
  const { entry, location, error } = testCase;
  const common = { section: STORAGE_CONVENTIONS_SECTION, level: 'required', since } as const;
  const helper = (
    member: keyof SkillStoreConventions,
    suffix: string,
    title: string,
    run: () => unknown,
  ): ConformanceCase<Ctx> => ({
    ...common,
    id: `${id}${suffix}`,
    title,
    requires: conventionCapability(member),
    run: async () => void (await run()),
  });
  switch (testCase.operation) {
    case 'content-hash': {
      const body = readString(entry['body'], `${location}.body`);
      const content_hash = readString(entry['content_hash'], `${location}.content_hash`);
      const version = readString(entry['version'], `${location}.version`);
      return [
        helper('contentHash', '', `contentHash of ${entry.id} is ${content_hash}`, () =>
          assertEqual(conventions.contentHash?.(body), content_hash, `contentHash(${formatValue(body)})`),
        ),
        helper('contentIdentity', '.identity', `contentIdentity of ${entry.id} is hash and version`, () =>
          assertEqual(
            conventions.contentIdentity?.(body),
            { content_hash, version },
            `contentIdentity(${formatValue(body)})`,
          ),
        ),
      ];
    }
    case 'version-from-hash': {
      const hash = readString(entry['hash'], `${location}.hash`);
      const call = () => conventions.versionFromHash?.(hash);
      const what = `versionFromHash(${formatValue(hash)})`;
      if (error !== undefined) {
        return [
          helper('versionFromHash', '', `${what} refuses with ${error}`, () =>
            assertStorageError(call, what, error),
          ),
        ];
      }
      const version = readString(entry['version'], `${location}.version`);
      return [
        helper('versionFromHash', '', `${what} is ${version}`, () => assertEqual(call(), version, what)),
      ];
    }
    case 'change-token': {
      // Deliberately unchecked: the refused cases hold duplicate names and statuses outside SkillStatus.
      const skills = entry['skills'] as readonly CatalogRevisionInput[];
      const call = () => conventions.catalogChangeToken?.(skills);
      const what = `catalogChangeToken(${entry.id})`;
      if (error !== undefined) {
        return [
          helper('catalogChangeToken', '', `${what} refuses with ${error}`, () =>
            assertStorageError(call, what, error),
          ),
        ];
      }
      const token = readString(entry['token'], `${location}.token`);
      return [
        helper('catalogChangeToken', '', `${what} is ${token}`, () => assertEqual(call(), token, what)),
      ];
    }
    case 'status-header': {
      const body = readString(entry['body'], `${location}.body`);
      const header = entry['header'] === null ? null : readHeader(entry['header'], `${location}.header`);
      const status = readSkillStatus(entry['status'], `${location}.status`);
      return [
        helper('readStatusHeader', '', `the # Status: header of ${entry.id}`, () => {
          const read = conventions.readStatusHeader?.(body);
          const plain = read === null || read === undefined ? read : { status: read.status, rest: read.rest };
          assertEqual(plain, header, `readStatusHeader(${formatValue(body)})`);
        }),
        helper('statusOfSkill', '.status', `${entry.id} reads as ${status}`, () =>
          assertEqual(conventions.statusOfSkill?.(body), status, `statusOfSkill(${formatValue(body)})`),
        ),
        {
          ...common,
          id: `${id}.store`,
          title: `a new skill stored with ${entry.id}'s body records status ${status}`,
          level: 'recommended',
          run: (ctx) =>
            ctx.withStore(async (store) => {
              const info = await store.store(CONVENTION_SKILL, body);
              assertEqual(info.status, status, `store(${formatValue(body)}) VersionInfo.status`);
              const meta = await store.metadata(CONVENTION_SKILL);
              assertEqual(meta.status, status, `metadata().status after store(${formatValue(body)})`);
            }),
        },
      ];
    }
    case 'set-status': {
      const body = readString(entry['body'], `${location}.body`);
      // Deliberately unchecked: the refused case names a lowercase status.
      const status = entry['status'] as SkillStatus;
      const call = () => conventions.withStatusHeader?.(body, status);
      const what = `withStatusHeader(${formatValue(body)}, ${formatValue(status)})`;
      const stored = {
        ...common,
        id: `${id}.store`,
        level: 'recommended',
        requires: 'supports_writes',
      } as const;
      if (error !== undefined) {
        return [
          helper('withStatusHeader', '', `${what} refuses with ${error}`, () =>
            assertStorageError(call, what, error),
          ),
          {
            ...stored,
            title: `update_status(${formatValue(status)}) refuses with ${error}`,
            run: (ctx) =>
              ctx.withStore(async (store) => {
                await store.store(CONVENTION_SKILL, body);
                await assertStorageError(
                  () => store.update_status(CONVENTION_SKILL, status),
                  `update_status(${formatValue(status)})`,
                  error,
                );
              }),
          },
        ];
      }
      const expected = readString(entry['expected'], `${location}.expected`);
      return [
        helper('withStatusHeader', '', `${what} rewrites the header as the fixture says`, () =>
          assertEqual(call(), expected, what),
        ),
        {
          ...stored,
          title: `update_status(${formatValue(status)}) of ${entry.id}'s body persists the fixture's bytes`,
          run: (ctx) =>
            ctx.withStore(async (store) => {
              await store.store(CONVENTION_SKILL, body);
              const info = await store.update_status(CONVENTION_SKILL, status);
              assertEqual(info.status, status, `update_status(${formatValue(status)}) VersionInfo.status`);
              const loaded = await store.load(CONVENTION_SKILL);
              assertEqual(
                loaded.source,
                expected,
                `load().source after update_status(${formatValue(status)})`,
              );
            }),
        },
      ];
    }
    default:
      return [];
  }
}

function readHeader(value: unknown, location: string): { status: SkillStatus | null; rest: string } {
  const record = readObject(value, location);
  return {
    status: record['status'] === null ? null : readSkillStatus(record['status'], `${location}.status`),
    rest: readString(record['rest'], `${location}.rest`),
  };
}

function readSkillStatus(value: unknown, location: string): SkillStatus {
  if (value !== 'Draft' && value !== 'Approved' && value !== 'Disabled') {
    throw invalidFixtureError(location, 'expected "Draft", "Approved" or "Disabled"');
  }
  return value;
}
