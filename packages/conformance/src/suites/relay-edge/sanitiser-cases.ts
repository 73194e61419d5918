import { assertEqual, assertTrue, fail } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import type { FixtureCase } from '../../fixtures/fixture-file.js';
import { readObject, readString, readStringArray, sinceOf } from '../../fixtures/fixture-file.js';
import type { ConformanceCase } from '../../suite.js';
import { levelForTags } from '../relay/case-level.js';
import { RELAY_SUITE_VERSION } from '../relay/suite-version.js';
import type { RelayEdgeImplementation } from './edge-implementation.js';
import { base64ToBytes, containsBytes } from './edge-implementation.js';

const SECTION = 'relay contract §6; relay-reference §10.2, §6';

/** The conformance case of one `kind: discord_sanitise` fixture case. */
export function sanitiserCase(
  entry: FixtureCase,
  location: string,
  suiteName: string,
): ConformanceCase<RelayEdgeImplementation> {
  const body = base64ToBytes(readString(entry['body_b64'], `${location}.body_b64`));
  const tenant = readString(entry['tenant'], `${location}.tenant`);
  const options =
    entry['profile'] === undefined
      ? { tenant }
      : { tenant, profile: readString(entry['profile'], `${location}.profile`) };
  const expected = readObject(entry['expected'], `${location}.expected`);
  const forwardedJson = readObject(expected['forwarded_json'], `${location}.expected.forwarded_json`);
  const token =
    expected['token'] === null ? null : readString(expected['token'], `${location}.expected.token`);
  const sessionKeys = readStringArray(expected['session_keys'], `${location}.expected.session_keys`);
  if ((token === null) !== (sessionKeys.length === 0)) {
    throw invalidFixtureError(`${location}.expected`, 'a token needs session keys, and only a token');
  }
  return {
    id: `${suiteName}.sanitiser.${entry.id}`,
    title:
      token === null
        ? `forwards a Discord interaction without a token as it is, binding nothing: ${entry.id}`
        : `cuts the Discord interaction token out and binds it under ${sessionKeys.length} session keys: ${entry.id}`,
    section: SECTION,
    level: levelForTags(entry.tags),
    since: sinceOf(entry, location, RELAY_SUITE_VERSION),
    requires: 'discord-sanitiser',
    run: async (impl) => {
      const result = await impl.sanitiseDiscordInteraction?.(body, options);
      if (result === undefined) fail('sanitiseDiscordInteraction must return a result');
      let forwarded: unknown;
      try {
        forwarded = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(result.forwardedBody));
      } catch {
        fail('the forwarded body must be UTF-8 JSON');
      }
      assertEqual(forwarded, forwardedJson, 'forwarded interaction');
      if (token !== null) {
        assertTrue(
          !containsBytes(result.forwardedBody, new TextEncoder().encode(token)),
          'the token must not appear in the forwarded bytes',
        );
      }
      const keys = [...new Set(result.bindings.map((binding) => binding.sessionKey))].sort();
      assertEqual(keys, [...sessionKeys].sort(), 'session keys the token is bound under');
      for (const binding of result.bindings) {
        assertEqual(binding.tenant, tenant, `tenant of the binding under ${binding.sessionKey}`);
        assertEqual(binding.credential, token, `credential bound under ${binding.sessionKey}`);
      }
    },
  };
}
