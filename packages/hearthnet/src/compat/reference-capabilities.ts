// The catalogue capabilities as the Python reference node serves them (Ckal/HearthNet 6e28872, observed
// live with scripts/oracles/hearthnet-reference.mjs; hearthnet-reference.md §19): what it accepts, what
// it answers, and the contract shapes its answers are converted to where the contract has one.
import { isJsonObject } from '@agentwire/internal';
import { catalogueDescriptor } from '../capabilities/catalogue/catalogue.js';
import type { CapabilityDescriptor } from '../capabilities/descriptor.js';
import type { JsonSchema } from '../capabilities/json-schema.js';

type Json = Record<string, unknown>;

const OBJECT = { type: 'object' } as const;
const STRING = { type: 'string' } as const;
const NUMBER = { type: 'number' } as const;
const INTEGER = { type: 'integer' } as const;
const OBJECTS = { type: 'array', items: OBJECT } as const;

/**
 * What a reference node takes: any `params` and `input` objects. It checks the fields itself and
 * answers a missing one in-band (`bad_request`, read as a `BadRequestError`), so the client refuses
 * nothing a reference node would serve — `llm.chat` without `params.model`, `chat.send` to a `local-…`
 * id, `file.put` with inline `{data_b64, filename}`, `rag.ingest` with `{text}`.
 */
const REFERENCE_REQUEST = {
  type: 'object',
  properties: { params: { ...OBJECT, default: {} }, input: { ...OBJECT, default: {} } },
  additionalProperties: false,
} as const;

function answer(output: JsonSchema): JsonSchema {
  return { type: 'object', properties: { output, meta: OBJECT }, required: ['output'] };
}

function fields(properties: Readonly<Record<string, JsonSchema>>): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties) };
}

/** Each catalogue capability a reference node serves: the `output` it answers (open objects). */
const REFERENCE_OUTPUTS: Readonly<Record<string, JsonSchema>> = {
  'llm.chat': fields({ message: fields({ role: STRING, content: STRING }) }),
  'llm.complete': fields({ text: STRING }),
  'embed.text': fields({ embeddings: { type: 'array', items: { type: 'array', items: NUMBER } } }),
  'rag.query': fields({
    chunks: { type: 'array', items: fields({ rank: INTEGER, score: NUMBER, text: STRING }) },
  }),
  'rag.ingest': fields({ doc_cid: STRING, chunks_indexed: INTEGER }),
  // Corpus names; a contract node's `{name, …}` objects are read too.
  'rag.list_corpora': fields({ corpora: { type: 'array', items: { anyOf: [STRING, OBJECT] } } }),
  'file.put': fields({ cid: STRING, size: INTEGER }),
  'file.list': fields({ files: { type: 'array', items: fields({ cid: STRING }) } }),
  'market.post': fields({ event_id: STRING }),
  'market.list': fields({ posts: OBJECTS }),
  'market.search': fields({ posts: OBJECTS }),
  'market.expire': fields({ event_id: STRING }),
  'chat.send': fields({ event_id: STRING, delivered: { anyOf: [{ type: 'boolean' }, STRING] } }),
  'chat.history': fields({ messages: { type: 'array', items: fields({ event_id: STRING }) } }),
};

const descriptors = new Map<string, CapabilityDescriptor>();

/**
 * The descriptor a client in reference mode checks a catalogue capability with: the catalogue's, with
 * the reference node's request and response schemas (`undefined` outside the catalogue, or for another
 * major version: those calls go unchecked).
 */
export function referenceDescriptorOf(capability: string, version: string): CapabilityDescriptor | undefined {
  const catalogued = catalogueDescriptor(capability);
  if (catalogued === undefined || version.split('.')[0] !== '1') return undefined;
  let descriptor = descriptors.get(capability);
  if (descriptor === undefined) {
    const output = REFERENCE_OUTPUTS[capability];
    descriptor = {
      ...catalogued,
      requestSchema: REFERENCE_REQUEST,
      responseSchema: output === undefined ? answer(OBJECT) : answer(output),
      // A reference node streams one untyped frame holding the whole result.
      streamSchema: null,
    };
    descriptors.set(capability, descriptor);
  }
  return descriptor;
}

/**
 * A checked reference answer with the contract's fields added where they follow from it, the reference's
 * own kept: market posts in contract shape (`lon` as `lng`, `"location": null` dropped), corpus names as
 * `{name}`, `file.list`'s `files` also as `cids`. Fields the reference does not send (`score` of a
 * search hit, `lamport` of an expiry or a chat message) stay absent.
 */
export function contractAnswerOf(capability: string, body: unknown): unknown {
  if (!isJsonObject<Json>(body) || !isJsonObject<Json>(body['output'])) return body;
  const output = body['output'];
  if (capability.startsWith('market.') && Array.isArray(output['posts'])) {
    return { ...body, output: { ...output, posts: output['posts'].map(contractPost) } };
  }
  if (capability === 'rag.list_corpora' && Array.isArray(output['corpora'])) {
    const corpora = output['corpora'].map((corpus) =>
      typeof corpus === 'string' ? { name: corpus } : corpus,
    );
    return { ...body, output: { ...output, corpora } };
  }
  if (capability === 'file.list' && Array.isArray(output['files']) && !('cids' in output)) {
    const cids = output['files'].map((file) => (file as Json)['cid']);
    return { ...body, output: { ...output, cids } };
  }
  return body;
}

function contractPost(post: unknown): unknown {
  if (!isJsonObject<Json>(post) || !Object.hasOwn(post, 'location')) return post;
  const { location, ...rest } = post;
  return location === null ? rest : { ...rest, location: contractLocation(location) };
}

/**
 * A market location as the contract writes it: the reference's `{lat, lon, label}` as `{lat, lng,
 * label}` (`label: null` dropped). Anything else — a contract location, not an object — as it came.
 */
export function contractLocation(location: unknown): unknown {
  if (!isJsonObject<Json>(location) || !Object.hasOwn(location, 'lon') || Object.hasOwn(location, 'lng')) {
    return location;
  }
  const { lon, label, ...coordinates } = location;
  return { ...coordinates, lng: lon, ...(label === null ? {} : { label }) };
}

/** A market location as a reference node writes it: the contract's `{lat, lng, label?}` as `{lat, lon, label?}`. */
export function referenceLocation(location: unknown): unknown {
  if (!isJsonObject<Json>(location) || !Object.hasOwn(location, 'lng')) return location;
  const { lng, ...rest } = location;
  return { ...rest, lon: lng };
}
