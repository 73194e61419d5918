// The client in reference mode against answers a live reference node gave (Ckal/HearthNet 6e28872, run
// with scripts/oracles/hearthnet-reference.mjs): each is read, and converted where the contract has a
// shape; the requests reference callers send go out as they are.
import { describe, expect, it } from 'vitest';
import { BadRequestError, catalogueDescriptor, InternalError } from '../capabilities/index.js';
import { keyPairFromSeed } from '../crypto/key-pair.js';
import { createHearthNetClient } from '../wire/hearthnet-client.js';
import { referenceWire } from './reference-wire.js';

const caller = keyPairFromSeed(new Uint8Array(32).fill(5));

/** A client whose node answers `body` (200, JSON) and records what was sent. */
function clientAnswering(body: unknown) {
  const sent: unknown[] = [];
  const client = createHearthNetClient({
    identity: caller,
    community: 'ed25519:community',
    node: 'http://reference.test',
    wire: referenceWire,
    fetch: async (_input, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    },
  });
  return { client, sent };
}

const routed = (output: unknown, meta: unknown = {}) => ({ output, meta, _routed_via: 'local' });

describe('the client in reference mode', () => {
  it('reads the five answers the contract schemas refused, converted where the contract has a shape', async () => {
    const corpora = clientAnswering(routed({ corpora: ['community', 'garden'] }));
    expect(await corpora.client.call('rag.list_corpora', { params: {}, input: {} })).toEqual(
      routed({ corpora: [{ name: 'community' }, { name: 'garden' }] }),
    );
    const post = {
      title: 'Water filters to share',
      category: 'offer',
      body: 'Two spare cloth filters.',
      author: 'local-3f09f628',
      event_id: 'evt:06cd84b2855f406b9911f786607a8665',
      lamport: 1,
      location: { lat: 52.5, lon: 13.4, label: null },
    };
    const search = clientAnswering(routed({ posts: [post] }));
    const { location: _location, ...rest } = post;
    expect(await search.client.call('market.search', { params: {}, input: { query: 'water' } })).toEqual(
      routed({ posts: [{ ...rest, location: { lat: 52.5, lng: 13.4 } }] }),
    );
    const expired = { expired: true, event_id: post.event_id };
    expect(
      await clientAnswering(routed(expired)).client.call('market.expire', {
        params: {},
        input: { client_id: 'c', event_id: post.event_id, reason: 'fulfilled' },
      }),
    ).toEqual(routed(expired));
    const messages = [
      { event_id: 'msg:7b06', from: 'local-feedf00d', to: 'local-34b1a12c', body: 'hi', attachments: [] },
    ];
    expect(
      await clientAnswering(routed({ messages })).client.call('chat.history', {
        params: {},
        input: {},
      } as never),
    ).toEqual(routed({ messages }));
    const files = [
      {
        cid: 'sha256:df5f',
        filename: 'hello.txt',
        size: 16,
        added_at: '2026-11-29T10:09:50Z',
        uploader: 'local-3',
      },
    ];
    expect(
      await clientAnswering(routed({ files, count: 1 })).client.call('file.list', { params: {}, input: {} }),
    ).toEqual(routed({ files, count: 1, cids: ['sha256:df5f'] }));
  });

  it('sends the forms reference callers use as they are, and reads the in-band refusal of a missing field', async () => {
    const forms: [string, unknown, unknown][] = [
      [
        'llm.chat',
        { params: {}, input: { messages: [{ role: 'user', content: 'hi' }] } },
        { message: { role: 'assistant', content: 'demo-local: hi' } },
      ],
      [
        'chat.send',
        { params: {}, input: { recipient: 'local-1234abcd', body: 'hi' } },
        { event_id: 'msg:954d', lamport: 9, delivered: 'queued' },
      ],
      [
        'file.put',
        { params: {}, input: { data_b64: 'cHJvYmU=', filename: 'probe.txt' } },
        { cid: 'sha256:ba9c', filename: 'probe.txt', size: 5, added_at: '2026-11-29T10:09:51Z' },
      ],
      [
        'rag.ingest',
        { params: {}, input: { text: 'probe text' } },
        { doc_cid: 'doc:207c', chunks_indexed: 1 },
      ],
    ];
    for (const [capability, request, output] of forms) {
      const { client, sent } = clientAnswering(routed(output));
      expect(await client.call(capability as 'llm.chat', request as never)).toEqual(routed(output));
      expect(sent[0]).toMatchObject({ capability, version: '1.0', ...(request as object) });
    }
    const { client, sent } = clientAnswering({
      error: 'bad_request',
      message: 'recipient required',
      _routed_via: 'local',
    });
    const refusal = await client
      .call('chat.send', { params: {}, input: { body: 'x' } } as never)
      .catch((e: unknown) => e);
    expect(sent).toHaveLength(1);
    expect(refusal).toBeInstanceOf(BadRequestError);
    expect(refusal).toMatchObject({ message: 'recipient required' });
  });

  it("refuses an answer outside the reference node's own schema as an InternalError of the node", async () => {
    const { client } = clientAnswering(routed({ corpora: 'community' }));
    const error = await client.call('rag.list_corpora', { params: {}, input: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalError);
    expect((error as Error).message).toContain('$.output.corpora');
  });

  it("checks with a caller's descriptorOf the answer as the dialect reads it (converted first)", async () => {
    const posts = [{ event_id: 'evt:1', lamport: 1, title: 'Bread', location: null }];
    const client = createHearthNetClient({
      identity: caller,
      community: 'ed25519:community',
      node: 'http://reference.test',
      wire: referenceWire,
      descriptorOf: (name) => catalogueDescriptor(name),
      fetch: async () =>
        new Response(JSON.stringify(routed({ posts, max_lamport: 1 })), {
          headers: { 'Content-Type': 'application/json' },
        }),
    });
    // The catalogue refuses `location: null`; the conversion drops it before the check.
    expect(await client.call('market.list', { params: {}, input: {} })).toEqual(
      routed({ posts: [{ event_id: 'evt:1', lamport: 1, title: 'Bread' }], max_lamport: 1 }),
    );
  });
});
