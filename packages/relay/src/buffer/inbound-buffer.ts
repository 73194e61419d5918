import type { JsonValue } from '../json/index.js';

/**
 * A connector → gateway frame that waits for the gateway's `inbound_ack`, as its wire object without
 * `bufferId` (the buffer assigns it). `event` is a `MessageEvent` wire object, `forward` a
 * `passthrough_forward` forward object; both are stored and replayed verbatim.
 */
export type BufferedFrame =
  | { readonly type: 'inbound'; readonly event: { readonly [key: string]: JsonValue } }
  | { readonly type: 'passthrough_forward'; readonly forward: { readonly [key: string]: JsonValue } };

/**
 * One unacknowledged frame and the id the gateway acks it by. The frame comes back as the JSON text
 * `encodeBufferedFrame` wrote for it (`{"type":…,"event":…}` or `{"type":…,"forward":…}`, payload
 * keys in the order appended), so the server can send it without parsing and writing it again; read it
 * with `decodeBufferedFrame` where the object is needed.
 */
export interface BufferedEntry {
  readonly bufferId: string;
  readonly frameJson: string;
}

/**
 * Per-tenant queues of frames the gateway has not acknowledged yet (note §2.6). The server writes a
 * frame here **before** it is sent and removes it only on `inbound_ack`; after a reconnect or a
 * `going_idle` flip the holder of the gateway's socket replays what is left, in append order.
 *
 * Rules every implementation keeps (the conformance suite checks them):
 * - `append` checks and encodes the frame with `encodeBufferedFrame` before it returns its
 *   promise (later changes to the caller's object change nothing stored), resolves only once the entry
 *   is stored (durably, for a shared implementation) and returns a non-empty string id, unique within
 *   the tenant and never reused, even after an ack.
 * - `read` returns unacknowledged entries in append order, strictly after `afterId` (from the oldest
 *   when `null`), at most `limit` of them, each with the text `encodeBufferedFrame` wrote (a shared
 *   implementation that cannot trust its store re-checks it with `canonicalBufferedFrameJson`). An
 *   `afterId` that was acknowledged meanwhile still works as a position.
 * - `ack` is idempotent: `true` when it removed a pending entry, `false` when the id is unknown, already
 *   acknowledged, or belongs to another tenant. An acknowledged entry is never returned again.
 * - Tenants never see each other's entries.
 */
export interface InboundBuffer {
  /** Stores `frame` at the end of the tenant's queue and returns its `bufferId`. */
  append(tenant: string, frame: BufferedFrame): Promise<string>;
  /** Up to `limit` pending entries after `afterId` (exclusive), oldest first. */
  read(tenant: string, afterId: string | null, limit: number): Promise<readonly BufferedEntry[]>;
  /** Removes a pending entry; `false` when there was none with that id. */
  ack(tenant: string, bufferId: string): Promise<boolean>;
  /** How many entries of the tenant are pending. */
  size(tenant: string): Promise<number>;
  /** Releases connections and timers; the buffer is unusable afterwards. */
  close(): Promise<void>;
}
