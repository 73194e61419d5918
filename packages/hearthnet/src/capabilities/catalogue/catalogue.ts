import type { FromSchema, SchemaMode } from '../json-schema.js';
import { type CapabilityValidators, validatorsFor } from '../validators.js';
import { CHAT_HISTORY, CHAT_SEND } from './chat.js';
import { COMMUNITY_INVITE, COMMUNITY_REVOKE } from './community.js';
import { EMBED_TEXT } from './embed.js';
import { FILE_ADVERTISE, FILE_LIST, FILE_PUT, FILE_READ } from './file.js';
import { LLM_CHAT, LLM_COMPLETE } from './llm.js';
import { MARKET_EXPIRE, MARKET_LIST, MARKET_POST, MARKET_SEARCH } from './market.js';
import { RAG_INGEST, RAG_LIST_CORPORA, RAG_QUERY } from './rag.js';

export {
  CHAT_HISTORY,
  CHAT_SEND,
  COMMUNITY_INVITE,
  COMMUNITY_REVOKE,
  EMBED_TEXT,
  FILE_ADVERTISE,
  FILE_LIST,
  FILE_PUT,
  FILE_READ,
  LLM_CHAT,
  LLM_COMPLETE,
  MARKET_EXPIRE,
  MARKET_LIST,
  MARKET_POST,
  MARKET_SEARCH,
  RAG_INGEST,
  RAG_LIST_CORPORA,
  RAG_QUERY,
};

/** The 18 capabilities of contract §3.2, in the order of its table. */
export const CAPABILITY_CATALOGUE = [
  LLM_CHAT,
  LLM_COMPLETE,
  EMBED_TEXT,
  RAG_QUERY,
  RAG_INGEST,
  RAG_LIST_CORPORA,
  FILE_READ,
  FILE_LIST,
  FILE_ADVERTISE,
  FILE_PUT,
  MARKET_LIST,
  MARKET_POST,
  MARKET_EXPIRE,
  MARKET_SEARCH,
  CHAT_SEND,
  CHAT_HISTORY,
  COMMUNITY_INVITE,
  COMMUNITY_REVOKE,
] as const;

/** A descriptor of the catalogue. */
export type CatalogueDescriptor = (typeof CAPABILITY_CATALOGUE)[number];

/** The name of a capability of the catalogue, e.g. `'llm.chat'`. */
export type CatalogueCapabilityName = CatalogueDescriptor['name'];

/** The catalogue descriptor named `N`. */
export type CatalogueDescriptorOf<N extends CatalogueCapabilityName> = Extract<
  CatalogueDescriptor,
  { name: N }
>;

/**
 * The request body `{params, input}` of a catalogue capability: as sent (`'input'`, defaults may be
 * left out) or as validated (`'output'`, defaults filled in).
 */
export type CapabilityRequest<N extends CatalogueCapabilityName, M extends SchemaMode = 'input'> = FromSchema<
  CatalogueDescriptorOf<N>['requestSchema'],
  M
>;

/** The non-stream response body `{output, meta}` of a catalogue capability (`never` for `file.put`). */
export type CapabilityResponse<N extends CatalogueCapabilityName> =
  CatalogueDescriptorOf<N>['responseSchema'] extends null
    ? never
    : FromSchema<CatalogueDescriptorOf<N>['responseSchema']>;

/** A stream frame `{event, data}` of a catalogue capability, a union over its events (`never` if it does not stream). */
export type CapabilityStreamFrame<N extends CatalogueCapabilityName> =
  CatalogueDescriptorOf<N>['streamSchema'] extends null
    ? never
    : FromSchema<CatalogueDescriptorOf<N>['streamSchema']>;

const byName: ReadonlyMap<string, CatalogueDescriptor> = new Map(
  CAPABILITY_CATALOGUE.map((d) => [d.name, d]),
);

/**
 * The catalogue descriptor of a capability name, or `undefined` when the contract does not define it.
 *
 * @example
 * ```ts
 * catalogueDescriptor('rag.query')?.trust; // { level: 'member' }
 * ```
 */
export function catalogueDescriptor<N extends CatalogueCapabilityName>(name: N): CatalogueDescriptorOf<N>;
export function catalogueDescriptor(name: string): CatalogueDescriptor | undefined;
export function catalogueDescriptor(name: string): CatalogueDescriptor | undefined {
  return byName.get(name);
}

/**
 * The validators of a catalogue capability, typed: `request.parse` returns the request with defaults
 * filled in, `response.parse` the `{output, meta}` body, `stream.parse` one `{event, data}` frame.
 *
 * @example
 * ```ts
 * const { request } = catalogueValidators('market.list');
 * request.parse({ params: {}, input: {} }).input.limit; // 50
 * ```
 */
export function catalogueValidators<N extends CatalogueCapabilityName>(
  name: N,
): CapabilityValidators<CapabilityRequest<N, 'output'>, CapabilityResponse<N>, CapabilityStreamFrame<N>> {
  return validatorsFor(catalogueDescriptor(name)) as CapabilityValidators<
    CapabilityRequest<N, 'output'>,
    CapabilityResponse<N>,
    CapabilityStreamFrame<N>
  >;
}
