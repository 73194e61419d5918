import passthroughFixture from '../../../fixtures/relay/passthrough.json' with { type: 'json' };
import { assertEqual, assertRejects } from '../../assert.js';
import { invalidFixtureError } from '../../errors.js';
import {
  decodeFixtureValue,
  type FixtureCase,
  readBytes,
  readFixtureFile,
  readObject,
  readString,
} from '../../fixtures/fixture-file.js';
import type { ConformanceCase } from '../../suite.js';
import type { CapabilityMembers } from '../capability-members.js';
import { levelForTags } from './case-level.js';
import { RELAY_SUITE_VERSION } from './suite-version.js';

/** The ids a prompt callback token `hp1:<prompt_id>:<option_id>` carries. */
export interface PromptCallbackIds {
  readonly promptId: string;
  readonly optionId: string;
}

/** The URLs the gateway derives from a connector's configured base URL. */
export interface RelayUrlSet {
  /** The WebSocket URL the gateway dials. */
  readonly webSocket: string;
  /** The HTTP base the gateway maps the dial URL back to. */
  readonly httpBase: string;
  readonly enroll: string;
  readonly provision: string;
  readonly policy: string;
  readonly media: string;
}

/** The passthrough-plane functions a relay codec may offer; each one enables its cases. */
export interface PassthroughImplementation {
  /** Standard base64 with `=` padding. Capability `encode-passthrough-body`. */
  encodePassthroughBody?(body: Uint8Array): string | Promise<string>;
  /** What the gateway decodes from a forward's `bodyB64` (any JSON value). Capability `decode-passthrough-body`. */
  decodePassthroughBody?(bodyB64: unknown): Uint8Array | Promise<Uint8Array>;
  /** Canonical padded base64 only; throws or rejects otherwise. Capability `decode-passthrough-body-strict`. */
  decodePassthroughBodyStrict?(bodyB64: string): Uint8Array | Promise<Uint8Array>;
  /** The `[name, value]` pairs the gateway reads from a forward's `headers`. Capability `passthrough-headers`. */
  passthroughHeadersFromWire?(
    headers: unknown,
  ): readonly (readonly [string, string])[] | Promise<readonly (readonly [string, string])[]>;
  /** `hp1:<prompt_id>:<option_id>`; throws or rejects for an invalid id. Capability `encode-prompt-callback`. */
  encodePromptCallback?(ids: PromptCallbackIds): string | Promise<string>;
  /** The ids of a callback token; throws or rejects for anything else. Capability `decode-prompt-callback`. */
  decodePromptCallback?(token: string): PromptCallbackIds | Promise<PromptCallbackIds>;
  /** The URLs derived from a configured connector base URL. Capability `relay-urls`. */
  relayUrls?(baseUrl: string): RelayUrlSet | Promise<RelayUrlSet>;
  /** The media-plane URL of `mediaId` under a connector base URL. Capability `relay-media-url`. */
  relayMediaUrl?(baseUrl: string, mediaId: string): string | Promise<string>;
  /** The implementation's error code for a refused input; when given, error cases check it. */
  errorCode?(error: unknown): string | undefined;
}

interface Operation {
  readonly capability: string;
  readonly section: string;
  readonly title: string;
}

const FIXTURE_NAME = 'relay/passthrough.json';
const OPERATIONS: Readonly<Record<string, Operation>> = {
  encode_body: {
    capability: 'encode-passthrough-body',
    section: 'relay-reference §10.1',
    title: 'encodes body',
  },
  decode_body: {
    capability: 'decode-passthrough-body',
    section: 'relay-reference §10.1',
    title: 'decodes body',
  },
  decode_body_strict: {
    capability: 'decode-passthrough-body-strict',
    section: 'relay-reference §10.1',
    title: 'strictly decodes body',
  },
  headers_from_wire: {
    capability: 'passthrough-headers',
    section: 'relay-reference §10.1',
    title: 'reads headers',
  },
  encode_prompt_callback: {
    capability: 'encode-prompt-callback',
    section: 'relay-reference §7.4',
    title: 'encodes prompt callback',
  },
  decode_prompt_callback: {
    capability: 'decode-prompt-callback',
    section: 'relay-reference §7.4',
    title: 'decodes prompt callback',
  },
  relay_urls: { capability: 'relay-urls', section: 'relay-reference §2.1', title: 'derives URLs' },
  media_url: { capability: 'relay-media-url', section: 'relay-reference §7.5', title: 'media URL' },
};
const fixture = readFixtureFile(passthroughFixture, FIXTURE_NAME);

/** The members of a PassthroughImplementation that provide each capability. */
export const PASSTHROUGH_MEMBERS = {
  'encode-passthrough-body': ['encodePassthroughBody'],
  'decode-passthrough-body': ['decodePassthroughBody'],
  'decode-passthrough-body-strict': ['decodePassthroughBodyStrict'],
  'passthrough-headers': ['passthroughHeadersFromWire'],
  'encode-prompt-callback': ['encodePromptCallback'],
  'decode-prompt-callback': ['decodePromptCallback'],
  'relay-urls': ['relayUrls'],
  'relay-media-url': ['relayMediaUrl'],
} as const satisfies CapabilityMembers<PassthroughImplementation>;

/** Cases from `fixtures/relay/passthrough.json`, ids `<prefix>.passthrough.<fixture id>`. */
export function passthroughCases<Ctx extends PassthroughImplementation>(
  prefix: string,
): ConformanceCase<Ctx>[] {
  return fixture.cases.map((entry, index) =>
    caseFor<Ctx>(`${prefix}.passthrough.${entry.id}`, entry, `${FIXTURE_NAME} cases[${index}]`),
  );
}

function caseFor<Ctx extends PassthroughImplementation>(
  id: string,
  entry: FixtureCase,
  location: string,
): ConformanceCase<Ctx> {
  const name = readString(entry['operation'], `${location}.operation`);
  const compute = computation<Ctx>(name, entry, location);
  const operation = OPERATIONS[name];
  if (operation === undefined)
    throw invalidFixtureError(`${location}.operation`, `unknown operation ${name}`);
  const common = {
    id,
    section: operation.section,
    level: levelForTags(entry.tags),
    since: RELAY_SUITE_VERSION,
    requires: operation.capability,
  } as const;
  if ('error' in entry) {
    const code = readString(entry['error'], `${location}.error`);
    return {
      ...common,
      title: `${operation.title}: refuses ${entry.id} (${code})`,
      run: async (impl) => {
        const error = await assertRejects(() => compute(impl), `the input must be refused (${code})`);
        if (impl.errorCode) assertEqual(impl.errorCode(error), code, 'error code');
      },
    };
  }
  const expected = expectedOutput(name, entry, location);
  return {
    ...common,
    title: `${operation.title}: ${entry.id}`,
    run: async (impl) => assertEqual(await compute(impl), expected, operation.title),
  };
}

/** The call a case makes, in the implementation's terms. */
function computation<Ctx extends PassthroughImplementation>(
  name: string,
  entry: FixtureCase,
  location: string,
): (impl: Ctx) => unknown {
  const input = () => decodeFixtureValue(entry['input'], `${location}.input`);
  const text = (field: string) => readString(entry[field], `${location}.${field}`);
  switch (name) {
    case 'encode_body': {
      const body = () => readBytes(entry['input'], `${location}.input`);
      return (impl) => impl.encodePassthroughBody?.(body());
    }
    case 'decode_body':
      return (impl) => impl.decodePassthroughBody?.(input());
    case 'decode_body_strict': {
      const bodyB64 = text('input');
      return (impl) => impl.decodePassthroughBodyStrict?.(bodyB64);
    }
    case 'headers_from_wire':
      return (impl) => impl.passthroughHeadersFromWire?.(input());
    case 'encode_prompt_callback': {
      const ids = { promptId: text('prompt_id'), optionId: text('option_id') };
      return (impl) => impl.encodePromptCallback?.({ ...ids });
    }
    case 'decode_prompt_callback': {
      const token = text('token');
      return async (impl) => {
        const ids = await impl.decodePromptCallback?.(token);
        return ids && { prompt_id: ids.promptId, option_id: ids.optionId };
      };
    }
    case 'relay_urls': {
      const baseUrl = text('base_url');
      return async (impl) => {
        const urls = await impl.relayUrls?.(baseUrl);
        return (
          urls && {
            web_socket: urls.webSocket,
            http_base: urls.httpBase,
            enroll: urls.enroll,
            provision: urls.provision,
            policy: urls.policy,
            media: urls.media,
          }
        );
      };
    }
    case 'media_url': {
      const baseUrl = text('base_url');
      const mediaId = text('media_id');
      return (impl) => impl.relayMediaUrl?.(baseUrl, mediaId);
    }
    default:
      throw invalidFixtureError(`${location}.operation`, `unknown operation ${name}`);
  }
}

/** The expected result in the form {@link computation} returns it. */
function expectedOutput(name: string, entry: FixtureCase, location: string): unknown {
  switch (name) {
    case 'encode_prompt_callback':
      return readString(entry['token'], `${location}.token`);
    case 'decode_body':
    case 'decode_body_strict':
      return readBytes(entry['output'], `${location}.output`);
    case 'decode_prompt_callback':
    case 'relay_urls':
      return readObject(entry['output'], `${location}.output`);
    default:
      return decodeFixtureValue(entry['output'], `${location}.output`);
  }
}
