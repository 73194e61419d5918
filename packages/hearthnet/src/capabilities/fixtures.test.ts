// Runs the language-neutral capability fixtures (packages/conformance/fixtures/hearthnet/capability-*.json
// and error-mappings.json) against this implementation.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  assertRegistrableCapabilityName,
  parseCapabilityName,
  parseCapabilityVersion,
  satisfies,
} from './capability-name.js';
import { referenceSchemaHash, schemaHash, schemaHashDocument } from './capability-registry.js';
import { CAPABILITY_CATALOGUE, catalogueDescriptor } from './catalogue/catalogue.js';
import { errorFromBody, toErrorBody } from './error-body.js';
import { createHearthNetError, type HearthNetErrorCode, SchemaMismatchError } from './hearthnet-errors.js';
import { validatorsFor } from './validators.js';

interface FixtureCase {
  readonly id: string;
  readonly tags: readonly string[];
  readonly [field: string]: unknown;
}

function fixture(name: string): { description: string; source: string; cases: FixtureCase[] } {
  const url = new URL(`../../../conformance/fixtures/hearthnet/${name}`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8'));
}

const hashes = fixture('capability-schema-hashes.json');
const samples = fixture('capability-samples.json');
const versions = fixture('capability-versions.json');
const errors = fixture('error-mappings.json');

describe('capability-schema-hashes.json', () => {
  it('lists exactly the 18 capabilities of the catalogue, in order', () => {
    expect(hashes.cases.map((c) => `${c['name']}@${c['version']}`)).toEqual(
      CAPABILITY_CATALOGUE.map((d) => `${d.name}@${d.version}`),
    );
  });

  for (const entry of hashes.cases) {
    it(`${entry.id}: schemas, descriptor and both hashes`, () => {
      const descriptor = catalogueDescriptor(entry['name'] as string);
      if (descriptor === undefined) throw new Error(`no catalogue entry for ${String(entry['name'])}`);
      const expected = entry['expected'] as Record<string, string>;
      expect(schemaHashDocument(descriptor)).toEqual(entry['schema_document']);
      const { name, version, requestSchema, responseSchema, streamSchema, ...rest } = descriptor;
      expect(JSON.parse(JSON.stringify(rest))).toEqual(entry['descriptor']);
      expect(schemaHash(descriptor)).toBe(expected['schema_hash']);
      expect(referenceSchemaHash(name, version)).toBe(expected['reference_schema_hash']);
    });
  }
});

describe('capability-samples.json', () => {
  it('covers every capability and every part it has', () => {
    const covered = new Set(samples.cases.map((c) => `${c['capability']} ${c['part']}`));
    for (const d of CAPABILITY_CATALOGUE) {
      expect(covered.has(`${d.name} request`)).toBe(true);
      if (d.responseSchema !== null) expect(covered.has(`${d.name} response`)).toBe(true);
      if (d.streamSchema !== null) expect(covered.has(`${d.name} stream`)).toBe(true);
    }
  });

  for (const entry of samples.cases) {
    it(`${entry.id}: ${entry['valid'] ? 'accepted' : 'refused'}`, () => {
      const descriptor = catalogueDescriptor(entry['capability'] as string);
      if (descriptor === undefined) throw new Error(`no catalogue entry for ${String(entry['capability'])}`);
      const validator = validatorsFor(descriptor)[entry['part'] as 'request' | 'response' | 'stream'];
      if (validator === null) throw new Error(`${descriptor.name} has no ${String(entry['part'])} schema`);
      const result = validator.check(entry['value']);
      expect(result.ok).toBe(entry['valid']);
      if (result.ok && 'parsed' in entry) expect(result.value).toEqual(entry['parsed']);
    });
  }
});

describe('capability-versions.json', () => {
  for (const entry of versions.cases) {
    it(entry.id, () => {
      switch (entry['operation']) {
        case 'parse_name': {
          const name = entry['name'] as string;
          if ('error' in entry) {
            expect(() => parseCapabilityName(name)).toThrow(
              expect.objectContaining({
                code: entry['error'],
                details: expect.objectContaining({ reason: entry['reason'] }),
              }),
            );
            return;
          }
          const expected = entry['expected'] as {
            prefix: string;
            prefix_status: string;
            registrable: boolean;
          };
          expect(parseCapabilityName(name)).toEqual({
            name,
            prefix: expected.prefix,
            prefixStatus: expected.prefix_status,
          });
          if (expected.registrable) expect(assertRegistrableCapabilityName(name).name).toBe(name);
          else
            expect(() => assertRegistrableCapabilityName(name)).toThrow(
              expect.objectContaining({ code: 'invalid_capability_name' }),
            );
          return;
        }
        case 'parse_version':
          if ('error' in entry) {
            expect(() => parseCapabilityVersion(entry['version'] as string)).toThrow(
              expect.objectContaining({ code: entry['error'] }),
            );
          } else expect(parseCapabilityVersion(entry['version'] as string)).toEqual(entry['expected']);
          return;
        case 'satisfies': {
          const run = () => satisfies(entry['requirement'] as string, entry['offered'] as string);
          if ('error' in entry) expect(run).toThrow(expect.objectContaining({ code: entry['error'] }));
          else expect(run()).toBe(entry['expected']);
          return;
        }
        default:
          throw new Error(`unknown operation ${String(entry['operation'])}`);
      }
    });
  }
});

describe('error-mappings.json', () => {
  for (const entry of errors.cases) {
    it(entry.id, () => {
      switch (entry['operation']) {
        case 'code': {
          const error = createHearthNetError(entry['code'] as HearthNetErrorCode);
          const expected = entry['expected'] as Record<string, unknown>;
          expect({
            status: error.status,
            retry_policy: error.retryPolicy,
            retryable: error.retryable,
            retry_if_idempotent: error.shouldRetry(true),
          }).toEqual(expected);
          expect(error.shouldRetry(false)).toBe(expected['retryable']);
          return;
        }
        case 'decode': {
          const error = errorFromBody(entry['body'], entry['status'] as number);
          const expected = entry['expected'] as Record<string, unknown>;
          expect(error.code).toBe(expected['code']);
          if ('message' in expected) expect(error.message).toBe(expected['message']);
          expect(error.retryAfterMs).toBe(expected['retry_after_ms']);
          expect(error.altCapabilities).toEqual(expected['alt_capabilities']);
          expect(error.altNodes).toEqual(expected['alt_nodes']);
          expect(error.remoteCode).toBe(expected['remote_code']);
          expect(error instanceof SchemaMismatchError ? error.schemaHashExpected : undefined).toBe(
            expected['schema_hash_expected'],
          );
          return;
        }
        case 'encode': {
          const input = entry['error'] as Record<string, unknown>;
          const options: Record<string, unknown> = {};
          if ('retry_after_ms' in input) options['retryAfterMs'] = input['retry_after_ms'];
          if ('alt_capabilities' in input) options['altCapabilities'] = input['alt_capabilities'];
          if ('alt_nodes' in input) options['altNodes'] = input['alt_nodes'];
          if ('schema_hash_expected' in input) options['schemaHashExpected'] = input['schema_hash_expected'];
          const error = createHearthNetError(
            input['code'] as HearthNetErrorCode,
            input['message'] as string,
            options,
          );
          expect(toErrorBody(error)).toEqual(entry['expected']);
          return;
        }
        default:
          throw new Error(`unknown operation ${String(entry['operation'])}`);
      }
    });
  }
});
