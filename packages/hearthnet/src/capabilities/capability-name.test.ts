// The name and version parsers behind `satisfies` and `CapabilityRegistry.register` are not exported,
// so @agentwire/conformance cannot reach them; their vectors are copied here from the parse_name and
// parse_version cases of its fixture hearthnet/capability-versions.json (the satisfies cases run in
// its capabilitySchemaSuite).
import { describe, expect, it } from 'vitest';
import {
  assertRegistrableCapabilityName,
  parseCapabilityName,
  parseCapabilityVersion,
} from './capability-name.js';

/** `[name, prefix, prefix status (contract §3.1), whether a node may offer it]`. */
const wellFormedNames: readonly [string, string, string, boolean][] = [
  ['llm.chat', 'llm', 'stable', true],
  ['rag.list_corpora', 'rag', 'stable', true],
  ['community.revoke', 'community', 'stable', true],
  ['federation.peer.add', 'federation', 'beta', true],
  ['experimental.weather.now', 'experimental', 'unstable', true],
  ['ocr.image', 'ocr', 'reserved', false],
  ['discovery.peer.add', 'discovery', 'unallocated', false],
  ['tool.plant_identify', 'tool', 'unallocated', false],
];

const malformedNames: readonly string[] = [
  'llm',
  'LLM.chat',
  'llm..chat',
  'llm.chat.',
  '.llm.chat',
  'llm.1chat',
  'llm.chat-x',
  'llm.chat@1.0',
  '',
  // 129 characters: one past the limit.
  `a.${'b'.repeat(127)}`,
];

const versions: readonly [string, { major: number; minor: number }][] = [
  ['1.0', { major: 1, minor: 0 }],
  ['0.0', { major: 0, minor: 0 }],
  ['2.10', { major: 2, minor: 10 }],
];

const malformedVersions: readonly string[] = [
  '1',
  '1.0.0',
  '01.0',
  '1.01',
  'v1.0',
  '1.',
  '.1',
  '1.x',
  '-1.0',
  ' 1.0',
  '',
];

describe('parseCapabilityName', () => {
  it.each(wellFormedNames)(
    '%s: prefix %s (%s), registrable %s',
    (name, prefix, prefixStatus, registrable) => {
      expect(parseCapabilityName(name)).toEqual({ name, prefix, prefixStatus });
      if (registrable) expect(assertRegistrableCapabilityName(name).name).toBe(name);
      else
        expect(() => assertRegistrableCapabilityName(name)).toThrow(
          expect.objectContaining({ code: 'invalid_capability_name' }),
        );
    },
  );

  it.each(malformedNames)('refuses %j as malformed', (name) => {
    for (const parse of [parseCapabilityName, assertRegistrableCapabilityName]) {
      expect(() => parse(name)).toThrow(
        expect.objectContaining({
          code: 'invalid_capability_name',
          details: expect.objectContaining({ reason: 'malformed' }),
        }),
      );
    }
  });
});

describe('parseCapabilityVersion', () => {
  it.each(versions)('%s', (version, expected) => {
    expect(parseCapabilityVersion(version)).toEqual(expected);
  });

  it.each(malformedVersions)('refuses %j', (version) => {
    expect(() => parseCapabilityVersion(version)).toThrow(
      expect.objectContaining({ code: 'invalid_capability_version' }),
    );
  });
});
