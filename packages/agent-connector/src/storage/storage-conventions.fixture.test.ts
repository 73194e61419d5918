// Runs the language-neutral fixture (packages/conformance/fixtures/agent-connector/storage-conventions.json)
// against this implementation, and guards the file itself: shape, ids and coverage of every operation.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AgentConnectorError } from '../contract/errors.js';
import type { DataStore, QueryFilters } from './data-store.js';
import {
  DataStoreQueryBridge,
  dataWriteFromArgs,
  enforceSupportedFilters,
  summarizeContent,
} from './data-store.js';
import { UnsupportedFilterError } from './errors.js';
import type { SkillStatus } from './skill-store.js';
import {
  catalogChangeToken,
  contentHash,
  contentIdentity,
  readStatusHeader,
  statusOfSkill,
  versionFromHash,
  withStatusHeader,
} from './skill-store.js';

type Operation =
  | 'content-hash'
  | 'version-from-hash'
  | 'change-token'
  | 'enforce-filters'
  | 'bridge-query'
  | 'bridge-write'
  | 'status-header'
  | 'set-status'
  | 'summary';

interface FixtureCase {
  readonly id: string;
  readonly tags: readonly string[];
  readonly operation: Operation;
  readonly [field: string]: unknown;
}

interface Fixture {
  readonly description: string;
  readonly source: string;
  readonly cases: readonly FixtureCase[];
}

const FIXTURE_URL = new URL(
  '../../../conformance/fixtures/agent-connector/storage-conventions.json',
  import.meta.url,
);
const fixture = JSON.parse(readFileSync(FIXTURE_URL, 'utf8')) as Fixture;
const ERROR_CODES = ['storage_validation', 'unsupported_filter'];

/** Runs `action` and returns what it threw; fails the test when it does not throw. */
async function thrown(action: () => unknown): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

/** Checks a thrown storage error against a case's `error` code and, if given, its `unsupported_keys`. */
async function expectCaseError(action: () => unknown, testCase: FixtureCase): Promise<void> {
  const error = await thrown(action);
  expect(error).toBeInstanceOf(AgentConnectorError);
  expect((error as AgentConnectorError).code).toBe(testCase['error']);
  if (testCase['error'] === 'unsupported_filter') expect(error).toBeInstanceOf(UnsupportedFilterError);
  if (testCase['unsupported_keys'] !== undefined) {
    expect((error as UnsupportedFilterError).unsupported_keys).toEqual(testCase['unsupported_keys']);
  }
}

/** A store that records the filters it receives and answers with one item. */
function recordingStore(supported: readonly string[] | null) {
  const received: QueryFilters[] = [];
  const store: DataStore = {
    query: async (filters) => {
      received.push(filters);
      return [{ id: '1', summary: 'hit' }];
    },
    write: async () => ({ id: '1', created_at: 0 }),
    get: async () => null,
    manifest: async () => ({
      capabilities_version: '1',
      manifest: supported === null ? { kind: 'test' } : { kind: 'test', supported_filters: [...supported] },
    }),
  };
  return { store, received };
}

const run: Record<Operation, (testCase: FixtureCase) => Promise<void>> = {
  'content-hash': async (testCase) => {
    const body = testCase['body'] as string;
    expect(contentHash(body)).toBe(testCase['content_hash']);
    expect(contentIdentity(body)).toEqual({
      content_hash: testCase['content_hash'],
      version: testCase['version'],
    });
  },
  'version-from-hash': async (testCase) => {
    const hash = testCase['hash'] as string;
    if (testCase['error'] !== undefined) {
      await expectCaseError(() => versionFromHash(hash), testCase);
    } else {
      expect(versionFromHash(hash)).toBe(testCase['version']);
    }
  },
  'change-token': async (testCase) => {
    const skills = testCase['skills'] as Parameters<typeof catalogChangeToken>[0];
    if (testCase['error'] !== undefined) {
      await expectCaseError(() => catalogChangeToken(skills), testCase);
    } else {
      expect(catalogChangeToken(skills)).toBe(testCase['token']);
    }
  },
  'enforce-filters': async (testCase) => {
    const filters = testCase['filters'] as Record<string, unknown>;
    const supported = (testCase['supported'] as string[] | null) ?? undefined;
    const enforce = () => enforceSupportedFilters(filters, supported);
    if (testCase['error'] !== undefined) {
      await expectCaseError(enforce, testCase);
    } else {
      expect(testCase['ok']).toBe(true);
      expect(enforce()).toBeUndefined();
    }
  },
  'bridge-query': async (testCase) => {
    const { store, received } = recordingStore(testCase['supported_filters'] as string[] | null);
    const bridge = new DataStoreQueryBridge(store);
    const args = testCase['args'] as Record<string, unknown>;
    if (testCase['error'] !== undefined) {
      await expectCaseError(() => bridge.query(args), testCase);
      expect(received).toEqual([]);
    } else {
      await expect(bridge.query(args)).resolves.toEqual({ items: [{ id: '1', summary: 'hit' }] });
      const expected = testCase['filters'] as Record<string, unknown>;
      expect(received).toHaveLength(1);
      expect(received[0]).toStrictEqual(expected);
      expect(Reflect.ownKeys(received[0] as object)).toEqual(Reflect.ownKeys(expected));
    }
  },
  'bridge-write': async (testCase) => {
    const args = testCase['args'] as Record<string, unknown>;
    if (testCase['error'] !== undefined) {
      await expectCaseError(() => dataWriteFromArgs(args), testCase);
    } else {
      expect(dataWriteFromArgs(args)).toStrictEqual(testCase['entry']);
    }
  },
  'status-header': async (testCase) => {
    const body = testCase['body'] as string;
    const header = readStatusHeader(body);
    expect(header === null ? null : { status: header.status, rest: header.rest }).toEqual(testCase['header']);
    expect(statusOfSkill(body)).toBe(testCase['status']);
  },
  'set-status': async (testCase) => {
    const set = () => withStatusHeader(testCase['body'] as string, testCase['status'] as SkillStatus);
    if (testCase['error'] !== undefined) {
      await expectCaseError(set, testCase);
    } else {
      expect(set()).toBe(testCase['expected']);
    }
  },
  summary: async (testCase) => {
    const summarize = () => summarizeContent(testCase['content'] as string);
    if (testCase['error'] !== undefined) {
      await expectCaseError(summarize, testCase);
    } else {
      expect(summarize()).toBe(testCase['summary']);
    }
  },
};

describe('storage-conventions.json fixture', () => {
  it('is well formed: description, source, unique kebab-case ids, known operations and error codes', () => {
    expect(fixture.description.length).toBeGreaterThan(0);
    expect(fixture.source.length).toBeGreaterThan(0);
    const ids = fixture.cases.map((testCase) => testCase.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const testCase of fixture.cases) {
      expect(testCase.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(Object.keys(run)).toContain(testCase.operation);
      if (testCase['error'] !== undefined) expect(ERROR_CODES).toContain(testCase['error']);
    }
  });

  it('covers every operation with passing and failing cases where the operation can fail', () => {
    for (const operation of Object.keys(run) as Operation[]) {
      const cases = fixture.cases.filter((testCase) => testCase.operation === operation);
      expect(cases.length, operation).toBeGreaterThan(0);
      if (operation !== 'content-hash' && operation !== 'status-header') {
        expect(
          cases.some((testCase) => testCase['error'] !== undefined),
          operation,
        ).toBe(true);
        expect(
          cases.some((testCase) => testCase['error'] === undefined),
          operation,
        ).toBe(true);
      }
    }
  });

  it('includes the empty-namespace token e3b0c44298fc1c14 and a body edit that keeps the status', () => {
    const tokens = new Map(fixture.cases.map((testCase) => [testCase.id, testCase['token']]));
    expect(tokens.get('change-token-empty')).toBe('e3b0c44298fc1c14');
    expect(tokens.get('change-token-body-edit-same-status')).not.toBe(
      tokens.get('change-token-two-skills-sorted'),
    );
    expect(tokens.get('change-token-two-skills-reversed')).toBe(tokens.get('change-token-two-skills-sorted'));
  });

  for (const testCase of fixture.cases) {
    it(`${testCase.operation}: ${testCase.id}`, () => run[testCase.operation](testCase));
  }
});
