import sideChannelsJson from '../../../fixtures/relay/edge-side-channels.json' with { type: 'json' };
import { invalidFixtureError } from '../../errors.js';
import { readFixtureFile } from '../../fixtures/fixture-file.js';
import { readObject, readPositiveInteger, readString } from '../../fixtures/read-fields.js';
import type { EdgeWorld } from './edge-implementation.js';

/** The name `edge-side-channels.json` is reported under. */
export const SIDE_CHANNELS_FIXTURE_NAME = 'relay/edge-side-channels.json';

/** The cases of `edge-side-channels.json`. */
export const sideChannelsFixture = readFixtureFile(sideChannelsJson, SIDE_CHANNELS_FIXTURE_NAME);

/** The fixture's `world`: what every side-channel case starts from. */
export const sideChannelWorld: EdgeWorld = readWorld(
  (sideChannelsJson as { readonly world?: unknown }).world,
  `${SIDE_CHANNELS_FIXTURE_NAME} world`,
);

function readWorld(value: unknown, location: string): EdgeWorld {
  const world = readObject(value, location);
  const identities = readObject(world['identities'], `${location}.identities`);
  return {
    now: readPositiveInteger(world['now'], `${location}.now`),
    identities: Object.fromEntries(
      Object.entries(identities).map(([token, identity]) => {
        const fields = readObject(identity, `${location}.identities.${token}`);
        const at = `${location}.identities.${token}`;
        return [
          token,
          {
            subject: readString(fields['subject'], `${at}.subject`),
            tenant: readString(fields['tenant'], `${at}.tenant`),
          },
        ];
      }),
    ),
    gateways: readList(world['gateways'], `${location}.gateways`).map((entry, i) => {
      const at = `${location}.gateways[${i}]`;
      const fields = readObject(entry, at);
      return {
        gatewayId: readString(fields['gateway_id'], `${at}.gateway_id`),
        tenant: readString(fields['tenant'], `${at}.tenant`),
      };
    }),
    enrollmentTokens: readList(world['enrollment_tokens'], `${location}.enrollment_tokens`).map(
      (entry, i) => {
        const at = `${location}.enrollment_tokens[${i}]`;
        const fields = readObject(entry, at);
        return {
          name: readString(fields['name'], `${at}.name`),
          tenant: readString(fields['tenant'], `${at}.tenant`),
          ttlSeconds: readPositiveInteger(fields['ttl_seconds'], `${at}.ttl_seconds`),
        };
      },
    ),
  };
}

function readList(value: unknown, location: string): readonly unknown[] {
  if (!Array.isArray(value)) throw invalidFixtureError(location, 'expected an array');
  return value;
}
