import { base64DecodeBytes, base64Encode, base64EncodeInto, base64Length } from '../encoding.js';
import { encodeSseFrame, type SseFrame } from './sse.js';

/** The data of a `chunk` frame: `file.read`'s carries `size_bytes`, `file.put`'s does not. */
export interface ChunkFrameData {
  readonly i: number;
  readonly cid: string;
  readonly size_bytes?: number;
  readonly data_b64: string;
}

/**
 * A `chunk` frame of `file.read` or `file.put` (contract §4.7, §4.10) that holds its chunk as bytes: sent,
 * its SSE text is written with the base64 encoded straight into it ({@link ChunkFrame.encode}); read, it
 * is decoded straight from the event's bytes ({@link ChunkFrame.decode}). Its `data` —
 * `{i, cid[, size_bytes], data_b64}`, in that key order — is built only when something reads it, so it
 * looks and serialises as any other frame. Internal to this package: the stream writers and the blob
 * transfers know it, everything else sees an {@link SseFrame}.
 */
export class ChunkFrame implements SseFrame<'chunk', ChunkFrameData> {
  declare readonly event: 'chunk';
  declare readonly data: ChunkFrameData;
  readonly #index: number;
  readonly #cid: string;
  readonly #bytes: Uint8Array;
  readonly #withSize: boolean;
  #data: ChunkFrameData | undefined;

  constructor(
    fields: { readonly i: number; readonly cid: string; readonly withSize: boolean },
    bytes: Uint8Array,
  ) {
    this.#index = fields.i;
    this.#cid = fields.cid;
    this.#bytes = bytes;
    this.#withSize = fields.withSize;
    // Own and enumerable, as on a plain frame (`{...frame}`, JSON.stringify, toEqual); the rest are getters.
    Object.defineProperty(this, 'event', { value: 'chunk', enumerable: true });
    Object.defineProperty(this, 'data', { enumerable: true, get: () => this.#dataOnce() });
  }

  /** The chunk's index in its manifest. */
  get index(): number {
    return this.#index;
  }

  get cid(): string {
    return this.#cid;
  }

  /** The chunk itself. */
  get bytes(): Uint8Array {
    return this.#bytes;
  }

  /** Whether `data` carries `size_bytes` (`file.read`'s frames do, `file.put`'s do not). */
  get withSize(): boolean {
    return this.#withSize;
  }

  #dataOnce(): ChunkFrameData {
    this.#data ??= this.#withSize
      ? {
          i: this.#index,
          cid: this.#cid,
          size_bytes: this.#bytes.length,
          data_b64: base64Encode(this.#bytes),
        }
      : { i: this.#index, cid: this.#cid, data_b64: base64Encode(this.#bytes) };
    return this.#data;
  }

  /** The frame's SSE bytes: what `encodeSseFrame` writes for `{event, data}`, byte for byte. */
  encode(): Uint8Array {
    const size = this.#withSize ? `,"size_bytes":${this.#bytes.length}` : '';
    const head = utf8.encode(
      `event: chunk\ndata: {"i":${this.#index},"cid":${JSON.stringify(this.#cid)}${size},"data_b64":"`,
    );
    const frame = new Uint8Array(head.length + base64Length(this.#bytes.length) + TAIL.length);
    frame.set(head, 0);
    frame.set(TAIL, base64EncodeInto(this.#bytes, frame, head.length));
    return frame;
  }

  /**
   * The frame a `chunk` event's data bytes hold, when they are exactly what {@link encode} writes —
   * `{"i":<integer>,"cid":"<printable ASCII>"[,"size_bytes":<integer>],"data_b64":"<strict base64>"}`,
   * no spaces, no escapes — or `undefined`, for the JSON reader to take (it then reads the same value, or
   * refuses it). `size_bytes`, when present, must be the chunk's length.
   */
  static decode(data: Uint8Array): ChunkFrame | undefined {
    let at = expect(data, 0, I_KEY);
    const index = at === -1 ? undefined : readInteger(data, at);
    if (index === undefined) return undefined;
    at = expect(data, index.end, CID_KEY);
    if (at === -1) return undefined;
    const cidEnd = plainStringEnd(data, at);
    if (cidEnd === -1) return undefined;
    const cid = asciiText(data, at, cidEnd);
    let size: number | undefined;
    at = cidEnd + 1;
    const sizeAt = expect(data, at, SIZE_KEY);
    if (sizeAt !== -1) {
      const read = readInteger(data, sizeAt);
      if (read === undefined) return undefined;
      size = read.value;
      at = read.end;
    }
    at = expect(data, at, DATA_KEY);
    if (
      at === -1 ||
      data.length - at < 2 ||
      data[data.length - 2] !== QUOTE ||
      data[data.length - 1] !== 0x7d
    ) {
      return undefined;
    }
    const bytes = base64DecodeBytes(data, at, data.length - 2);
    if (bytes === undefined || (size !== undefined && size !== bytes.length)) return undefined;
    return new ChunkFrame({ i: index.value, cid, withSize: size !== undefined }, bytes);
  }
}

const utf8 = new TextEncoder();

/** A frame's SSE bytes for a stream body: a {@link ChunkFrame}'s own, else `encodeSseFrame`'s text in UTF-8. */
export function frameBytes(frame: SseFrame): Uint8Array {
  return frame instanceof ChunkFrame ? frame.encode() : utf8.encode(encodeSseFrame(frame));
}

const ascii = (text: string) => Uint8Array.from(text, (character) => character.charCodeAt(0));
const I_KEY = ascii('{"i":');
const CID_KEY = ascii(',"cid":"');
const SIZE_KEY = ascii(',"size_bytes":');
const DATA_KEY = ascii(',"data_b64":"');
/** What ends a chunk frame after its base64: the string, the object, the event. */
const TAIL = ascii('"}\n\n');
const QUOTE = 0x22;

/** The offset after `expected` when `data` holds it at `at`, else -1. */
function expect(data: Uint8Array, at: number, expected: Uint8Array): number {
  if (data.length - at < expected.length) return -1;
  for (let k = 0; k < expected.length; k += 1) if (data[at + k] !== expected[k]) return -1;
  return at + expected.length;
}

/** A JSON integer as JSON.stringify writes one (no sign, no leading zero, at most 15 digits). */
function readInteger(data: Uint8Array, at: number): { value: number; end: number } | undefined {
  let end = at;
  let value = 0;
  while (end < data.length && end - at < 16) {
    const digit = (data[end] as number) - 0x30;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
    end += 1;
  }
  const digits = end - at;
  if (digits === 0 || digits > 15 || (digits > 1 && data[at] === 0x30)) return undefined;
  return { value, end };
}

/** Where a JSON string of printable ASCII without escapes, begun at `at`, ends (its quote), else -1. */
function plainStringEnd(data: Uint8Array, at: number): number {
  for (let end = at; end < data.length; end += 1) {
    const byte = data[end] as number;
    if (byte === QUOTE) return end;
    if (byte < 0x20 || byte > 0x7e || byte === 0x5c) return -1;
  }
  return -1;
}

function asciiText(data: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let k = start; k < end; k += 1) text += String.fromCharCode(data[k] as number);
  return text;
}

/**
 * A `chunk` event of `file.read@1.0` as a {@link ChunkFrame}, for a frame reader: every frame
 * {@link ChunkFrame.decode} takes is one that capability's stream schema allows.
 */
export function fileReadChunkFromBytes(event: string, data: Uint8Array): ChunkFrame | undefined {
  return event === 'chunk' ? ChunkFrame.decode(data) : undefined;
}

const BLAKE3_CID = /^blake3:[0-9a-f]{64}$/;

/**
 * A client's `chunk` event of `file.put@1.0` as a {@link ChunkFrame}, when its stream schema allows it
 * (no `size_bytes`, a `blake3:` CID); anything else is left to the JSON reader and the schema.
 */
export function filePutChunkFromBytes(event: string, data: Uint8Array): ChunkFrame | undefined {
  if (event !== 'chunk') return undefined;
  const frame = ChunkFrame.decode(data);
  return frame === undefined || frame.withSize || !BLAKE3_CID.test(frame.cid) ? undefined : frame;
}
