/**
 * A frame this side does not act on: a `type` the SDK does not know (from a newer peer), a missing
 * `type`, or a frame of the other direction echoed back. The gateway ignores such frames; decoders
 * return them instead of failing so that a reader can do the same, and `encodeFrame` writes `raw`
 * back unchanged.
 */
export interface UnknownFrame {
  readonly type: 'unknown';
  /** The `type` value as received (`undefined` when absent). */
  readonly rawType: unknown;
  /** The frame object as received. */
  readonly raw: Readonly<Record<string, unknown>>;
}
