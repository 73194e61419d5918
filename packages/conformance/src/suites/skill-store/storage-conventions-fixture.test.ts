import { describe, expect, it } from 'vitest';
import storageConventionsFixture from '../../../fixtures/agent-connector/storage-conventions.json' with {
  type: 'json',
};
import {
  DATA_STORE_OPERATIONS,
  SKILL_STORE_OPERATIONS,
  storageConventionCases,
} from './storage-conventions-fixture.js';

const operations = [...SKILL_STORE_OPERATIONS, ...DATA_STORE_OPERATIONS];
const cases = storageConventionCases(operations);

describe('storage-conventions.json, as the skill-store and data-store suites read it', () => {
  it('has a description, a source and kebab-case ids, every case run by one of the two suites', () => {
    expect(storageConventionsFixture.description.length).toBeGreaterThan(0);
    expect(storageConventionsFixture.source.length).toBeGreaterThan(0);
    for (const { entry } of cases) expect(entry.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(cases).toHaveLength(storageConventionsFixture.cases.length);
  });

  it('covers every operation, with passing and failing cases where the operation can fail', () => {
    for (const operation of operations) {
      const ofOperation = cases.filter((testCase) => testCase.operation === operation);
      expect(ofOperation.length, operation).toBeGreaterThan(0);
      if (operation !== 'content-hash' && operation !== 'status-header') {
        expect(
          ofOperation.some((testCase) => testCase.error !== undefined),
          operation,
        ).toBe(true);
        expect(
          ofOperation.some((testCase) => testCase.error === undefined),
          operation,
        ).toBe(true);
      }
    }
  });

  it('includes the empty-catalog token e3b0c44298fc1c14 and a body edit that keeps the status', () => {
    const tokens = new Map(cases.map(({ entry }) => [entry.id, entry['token']]));
    expect(tokens.get('change-token-empty')).toBe('e3b0c44298fc1c14');
    expect(tokens.get('change-token-body-edit-same-status')).not.toBe(
      tokens.get('change-token-two-skills-sorted'),
    );
    expect(tokens.get('change-token-two-skills-reversed')).toBe(tokens.get('change-token-two-skills-sorted'));
  });
});
