import verifiersFixture from '../../../fixtures/relay/edge-verifiers.json' with { type: 'json' };
import { assertEqual, assertRejects } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  type FixtureCase,
  readFixtureFile,
  readObject,
  readString,
  sinceOf,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase } from '../../suite.js';
import { levelForTags } from '../relay/case-level.js';
import { RELAY_SUITE_VERSION } from '../relay/suite-version.js';
import type {
  EdgeVerifierClock,
  EdgeWebhookRequest,
  EdgeWeComKeys,
  RelayEdgeImplementation,
} from './edge-implementation.js';
import { base64ToBytes, hexToBytes } from './edge-implementation.js';

const FIXTURE_NAME = 'relay/edge-verifiers.json';
const SECTION = 'relay contract §6';
const fixture = readFixtureFile(verifiersFixture, FIXTURE_NAME);

type EdgeCase = ConformanceCase<RelayEdgeImplementation>;
type Provider = 'discord' | 'twilio' | 'wecom';

const CAPABILITY: Readonly<Record<Provider, string>> = {
  discord: 'discord-verifier',
  twilio: 'twilio-verifier',
  wecom: 'wecom-verifier',
};

/** One conformance case per case of `edge-verifiers.json`, ids prefixed with `suiteName`. */
export function verifierCases(suiteName: string): EdgeCase[] {
  return fixture.cases.map((entry, index) =>
    verifierCase(entry, `${FIXTURE_NAME} cases[${index}]`, suiteName),
  );
}

function verifierCase(entry: FixtureCase, location: string, suiteName: string): EdgeCase {
  const common = {
    id: `${suiteName}.verifiers.${entry.id}`,
    section: SECTION,
    level: levelForTags(entry.tags),
    since: sinceOf(entry, location, RELAY_SUITE_VERSION),
  } as const;
  const options = readObject(entry['options'], `${location}.options`);
  if (entry['operation'] === 'encrypt_reply') {
    const message = readString(entry['message'], `${location}.message`);
    const replyOptions = {
      ...weComKeys(options, location),
      timestamp: readNumber(options['timestamp'], `${location}.options.timestamp`),
      nonce: readString(options['nonce'], `${location}.options.nonce`),
      random: hexToBytes(readString(options['random_hex'], `${location}.options.random_hex`)),
    };
    if ('error' in entry) {
      const code = readString(entry['error'], `${location}.error`);
      return {
        ...common,
        title: `refuses the WeCom passive reply of ${entry.id} (${code})`,
        requires: 'wecom-reply',
        run: async (impl) => {
          const error = await assertRejects(
            async () => impl.encryptWeComReply?.(message, replyOptions),
            `the reply must be refused (${code})`,
          );
          if (impl.errorCode) assertEqual(impl.errorCode(error), code, 'refusal code');
        },
      };
    }
    const expected = readObject(entry['expected'], `${location}.expected`);
    return {
      ...common,
      title: `encrypts the WeCom passive reply of ${entry.id}`,
      requires: 'wecom-reply',
      run: async (impl) =>
        assertEqual(await impl.encryptWeComReply?.(message, replyOptions), expected, 'encrypted reply'),
    };
  }
  if (entry['operation'] !== 'verify') {
    throw invalidFixtureError(`${location}.operation`, 'expected "verify" or "encrypt_reply"');
  }
  const provider = readProvider(entry['provider'], `${location}.provider`);
  const request = webhookRequest(readObject(entry['request'], `${location}.request`), `${location}.request`);
  const clock = verifierClock(entry, options, location);
  const verify = (impl: RelayEdgeImplementation): unknown => {
    switch (provider) {
      case 'discord':
        return impl.verifyDiscord?.(request, {
          ...clock,
          publicKey: readString(options['public_key'], `${location}.options.public_key`),
        });
      case 'twilio':
        return impl.verifyTwilio?.(request, {
          authToken: readString(options['auth_token'], `${location}.options.auth_token`),
        });
      case 'wecom':
        return impl.verifyWeCom?.(request, { ...clock, ...weComKeys(options, location) });
    }
  };
  if ('error' in entry) {
    const code = readString(entry['error'], `${location}.error`);
    return {
      ...common,
      title: `the ${provider} verifier refuses ${entry.id} (${code})`,
      requires: CAPABILITY[provider],
      run: async (impl) => {
        const error = await assertRejects(async () => verify(impl), `the request must be refused (${code})`);
        if (impl.errorCode) assertEqual(impl.errorCode(error), code, 'refusal code');
      },
    };
  }
  const expected = readObject(entry['expected'], `${location}.expected`);
  return {
    ...common,
    title: `the ${provider} verifier accepts ${entry.id}`,
    requires: CAPABILITY[provider],
    run: async (impl) => assertEqual(await verify(impl), expected, 'verified webhook'),
  };
}

function readProvider(value: unknown, location: string): Provider {
  if (value === 'discord' || value === 'twilio' || value === 'wecom') return value;
  throw invalidFixtureError(location, 'expected "discord", "twilio" or "wecom"');
}

function webhookRequest(request: Record<string, unknown>, location: string): EdgeWebhookRequest {
  const headers = request['headers'];
  if (
    !Array.isArray(headers) ||
    !headers.every(
      (pair: unknown) =>
        Array.isArray(pair) && pair.length === 2 && pair.every((part) => typeof part === 'string'),
    )
  ) {
    throw invalidFixtureError(`${location}.headers`, 'expected [name, value] string pairs');
  }
  return {
    method: readString(request['method'], `${location}.method`),
    url: readString(request['url'], `${location}.url`),
    headers: headers as [string, string][],
    body: base64ToBytes(readString(request['body_b64'], `${location}.body_b64`)),
  };
}

function verifierClock(
  entry: FixtureCase,
  options: Record<string, unknown>,
  location: string,
): EdgeVerifierClock {
  const now = readNumber(entry['now'], `${location}.now`);
  return 'max_skew_seconds' in options
    ? { now, maxSkewSeconds: readNumber(options['max_skew_seconds'], `${location}.options.max_skew_seconds`) }
    : { now };
}

function weComKeys(options: Record<string, unknown>, location: string): EdgeWeComKeys {
  return {
    token: readString(options['token'], `${location}.options.token`),
    encodingAesKey: readString(options['encoding_aes_key'], `${location}.options.encoding_aes_key`),
    corpId: readString(options['corp_id'], `${location}.options.corp_id`),
  };
}

function readNumber(value: unknown, location: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw invalidFixtureError(location, 'expected a finite number');
  }
  return value;
}
