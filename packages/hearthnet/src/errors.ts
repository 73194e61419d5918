/**
 * Every condition `@agentwire/hearthnet` refuses a value or an operation for locally, as the stable
 * `code` of a {@link HearthNetLocalError}. Codes never change meaning; the conformance fixtures name
 * them. (The 13 codes a peer answers with, contract §9, are the `HearthNetErrorCode`s of the
 * `HearthNetError` family instead.)
 */
export type HearthNetLocalErrorCode =
  // canonical JSON: a value that has no canonical JSON form (`path`: where in the value)
  /** A NaN or infinite number. */
  | 'non_finite_number'
  /** A string or key holding a lone UTF-16 surrogate. */
  | 'lone_surrogate'
  /** A value JSON cannot carry: `undefined`, a function, a symbol, a sparse array hole, a non-plain object. */
  | 'unsupported_type'
  /** An object that contains itself. */
  | 'cycle'
  /** Nesting deeper than `MAX_CANONICAL_DEPTH`. */
  | 'max_depth'
  // encodings: text not in the encoding a decoder accepts, or an encoder given no bytes
  | 'invalid_base64'
  | 'invalid_base64url'
  | 'invalid_base32'
  | 'invalid_hex'
  /** An encoder or a check was given something other than a `Uint8Array`. */
  | 'invalid_bytes'
  // keys, node ids, signed payloads
  /** A seed or public key that is not a `Uint8Array` of 32 bytes, or a key pair whose fields are not. */
  | 'invalid_key'
  /** A string that is not a full node id, `ed25519:<base64url of 32 bytes>` (`details.reason`, `details.value`). */
  | 'invalid_node_id'
  /** A payload to sign that is not a plain JSON object. */
  | 'invalid_payload'
  // content ids and chunking
  /** Not `blake3:`/`sha256:` + 64 lowercase hex, nor 64 bare lowercase hex (`details.value`). */
  | 'invalid_content_id'
  /** Data to hash that is neither bytes nor a string, or a string with no UTF-8 form. */
  | 'invalid_hash_input'
  /** A chunk size that is not a positive safe integer (`details.value`). */
  | 'invalid_chunk_size'
  /** A `Hasher` whose algorithm is not `[a-z0-9-]` or whose digest is not 32 bytes. */
  | 'invalid_hasher'
  // key files (`details.file`: the file concerned)
  /** `device.ed25519` does not exist. */
  | 'missing_seed_file'
  /** On POSIX, `device.ed25519` is readable or writable by group or others. */
  | 'insecure_permissions'
  /** `device.ed25519` is not base64url of 32 bytes. */
  | 'malformed_seed_file'
  /** `device.pub` is not base64url of 32 bytes. */
  | 'malformed_public_key_file'
  /** `device.pub` holds a key other than the seed's. */
  | 'public_key_mismatch'
  /** The file system refused a read or write; `cause` holds its error. */
  | 'io_error'
  // capabilities
  /** A schema keyword outside the supported JSON Schema subset (`path`: a pointer such as `#/properties/k`). */
  | 'invalid_schema'
  /** A capability name that breaks the syntax or prefix rules of §3.1 (`details.reason`, `details.value`). */
  | 'invalid_capability_name'
  /** A malformed version `"X.Y"`, reference `name@X.Y` or requirement `name@>=A.B` (`details.value`). */
  | 'invalid_capability_version'
  /** A descriptor or registration options that are unusable. */
  | 'invalid_capability_descriptor'
  /** A capability registered twice under the same `name@version` (`details.capability`). */
  | 'duplicate_capability'
  /** A value that does not match its capability schema (`details.capability`, `part`, `issues`). */
  | 'schema_validation'
  /** A `HearthNetError` constructed with options the §5.4 body cannot carry, or with an unknown code. */
  | 'invalid_error_options'
  // the wire
  /** An event stream that breaks §5.3 (`details.reason`). */
  | 'sse_protocol'
  /** A frame that cannot be written as SSE. */
  | 'invalid_sse_frame'
  /** Unusable fields of a request or response envelope (§5.1). */
  | 'invalid_envelope'
  /** A peer answered with something that is not a HearthNet response (`details.status`). */
  | 'unexpected_response'
  /** Unusable client or handler options. */
  | 'invalid_wire_options'
  /** A peer that does not read or acknowledge what it is sent was dropped (`details.limit`); reported, never thrown. */
  | 'slow_consumer'
  // the event log
  /** A string that is not a canonical ULID (`details.reason`, `details.value`). */
  | 'invalid_ulid'
  /** A ULID time outside 0 … 2⁴⁸−1 ms, or randomness that is not 10 bytes. */
  | 'ulid_input'
  /** The 80 random bits of the current millisecond are used up (`retryable`: the next millisecond has more). */
  | 'ulid_overflow'
  /** A Lamport value that is not a non-negative safe integer, or a counter past 2⁵³−1 (`details.value`). */
  | 'invalid_lamport'
  /** An event that cannot be built or stored (`details.reason`, `path`). */
  | 'invalid_event'
  /** An event with the `event_id` of a stored event but different content (`details.eventId`). */
  | 'event_conflict'
  /** `appendLocal`'s callback made an event without the community or Lamport value it was given. */
  | 'local_event_mismatch'
  // node manifests
  /** Not a contract timestamp (RFC 3339 UTC with `Z`), or a time that cannot be one (`details.value`). */
  | 'invalid_timestamp'
  /** Input that does not make a valid §6.1 manifest (`path`). */
  | 'invalid_node_manifest'
  /** Unusable options of `startManifestRepublisher`. */
  | 'invalid_republisher_options'
  /** Unusable options of `createManifestHandler` or `fetchNodeManifest`. */
  | 'invalid_manifest_handler_options'
  // replay and sync
  /** Unusable options of `replay` or the community-manifest helpers. */
  | 'invalid_replay_options'
  /** No valid `community.created` up to the head. */
  | 'community_not_created'
  /** The signing key may not sign a snapshot or a community manifest (`details.nodeId`). */
  | 'unauthorized_signer'
  /** A snapshot that `verifySnapshot` refuses (`details.reason`). */
  | 'invalid_snapshot'
  /** Unusable options of `createSyncHandler` or `syncWith`. */
  | 'invalid_sync_options'
  /** A peer answered 2xx with a body that is not the sync protocol's (`details.requestPath`). */
  | 'sync_protocol'
  // pub-sub
  /** A topic outside the catalogue of §8, or a malformed `chat.message.<recipient>` (`details.value`). */
  | 'unknown_topic'
  /** A local-only topic subscribed to or published over the wire (`details.topic`). */
  | 'local_only_topic'
  /** A payload that does not match its topic's payload kind (`details.topic`, `path`). */
  | 'invalid_topic_payload'
  /** Unusable options of the hub, the handler or the clients. */
  | 'invalid_pubsub_options'
  /** A node answered something that is not the pub-sub protocol. */
  | 'pubsub_protocol'
  // blob stores (`bad_request` on the wire, `corrupt_chunk`: `internal_error`)
  /** A malformed argument of a blob store call (`path`: the argument, e.g. `cid`). */
  | 'invalid_blob_store_input'
  /** Chunk bytes that do not hash to the CID they were offered under (`details.expectedCid`, `actualCid`). */
  | 'chunk_mismatch'
  /** A malformed manifest, or one whose CID is not the blob CID of its chunks (`path`: the field). */
  | 'invalid_blob_manifest'
  /** A manifest stored before all of its chunks are held (`details.cid`, `details.missing`). */
  | 'missing_chunks'
  /** Stored chunk bytes that no longer hash to their CID (`details.cid`, `details.actualCid`). */
  | 'corrupt_chunk'
  /** An unusable blob store option. */
  | 'invalid_blob_store_options'
  // blob transfer
  /** A peer's `file.read` / `file.put` frames cannot be trusted or do not add up (`details.reason`). */
  | 'blob_transfer'
  // the reference implementation (compat)
  /** A value Python `json.dumps` cannot write (`path`). */
  | 'python_json_unencodable'
  /** Text that is not JSON (`details.offset`). */
  | 'reference_json_syntax'
  /** Not a reference event id (26 RFC 4648 base32 characters) (`details.value`). */
  | 'invalid_reference_event_id'
  /** A reference `issued_at` that is not `YYYY-MM-DDTHH:MM:SS[.ffffff]Z` (`details.value`). */
  | 'invalid_reference_timestamp'
  /** A reference event without the reference envelope's nine fields and their types (`path`). */
  | 'malformed_reference_event'
  /** An event that cannot be carried from one form to the other (`details.reason`, `path`). */
  | 'event_conversion'
  /** An `hn1:` invite blob that cannot be read or written (`details.reason`). */
  | 'invalid_invite'
  /** A reference manifest that cannot be given a contract shape (`path`). */
  | 'manifest_conversion'
  /** Not a reference manifest of the expected form (`path`). */
  | 'malformed_reference_manifest'
  /** A reference snapshot without the reference's seven fields and their types (`path`). */
  | 'malformed_reference_snapshot'
  /** An SSE frame the reference cannot write (an unusable event name). */
  | 'invalid_reference_sse_frame'
  /** A blob manifest without the fields the reference's `manifest_cid` hashes (`path`). */
  | 'malformed_reference_blob_manifest';

/** Why `parseNodeId` refused a node id (`details.reason` of `invalid_node_id`). */
export type InvalidNodeIdReason =
  /** The value is not a string. */
  | 'not_a_string'
  /** The id does not start with `ed25519:`. */
  | 'missing_prefix'
  /** The id is the short display form (`ed25519:XXXX-XXXX-…`), which holds only 8 key bytes. */
  | 'short_form'
  /** The part after the prefix is not base64url (strict, or the reference's lenient decoding). */
  | 'invalid_encoding'
  /** The part after the prefix decodes, but not to 32 bytes. */
  | 'wrong_length';

/** Why a capability name was refused (`details.reason` of `invalid_capability_name`). */
export type InvalidCapabilityNameReason =
  /** Not a string of dot-separated lowercase segments (`[a-z][a-z0-9_]*`, at least two), ≤ 128 chars. */
  | 'malformed'
  /** The prefix is reserved for Phase 2 (`ocr.`, `tts.`, `stt.`, `trans.`, `img.`), contract §3.1. */
  | 'reserved_prefix'
  /** The prefix is not allocated by contract §3.1; such capabilities must start with `experimental.`. */
  | 'unallocated_prefix';

/** Why an SSE byte stream broke the framing rules of contract §5.3 (`details.reason` of `sse_protocol`). */
export type SseProtocolErrorReason =
  /** A frame arrived after the terminal `done` or `error` frame. */
  | 'frame_after_terminal'
  /** The stream ended without a terminal `done` or `error` frame. */
  | 'missing_terminal'
  /** A frame's `data` is not one JSON value. */
  | 'invalid_json'
  /** A frame's data does not match the schema of its event (the capability's, or `progress`/`ack`/`error`). */
  | 'invalid_frame'
  /** The stream is not valid UTF-8. */
  | 'invalid_utf8'
  /** A frame or a line grew past the parser's size limit. */
  | 'frame_too_large';

/** Why a string is not a ULID (`details.reason` of `invalid_ulid`). */
export type InvalidUlidReason =
  /** Not a string of 26 characters. */
  | 'wrong_length'
  /** A character outside upper-case Crockford base32 (`0–9 A–Z` without `I L O U`). */
  | 'invalid_character'
  /** The first character is above `7`: the time would not fit 48 bits. */
  | 'time_overflow';

/** Why a blob read from or written to a peer was refused (`details.reason` of `blob_transfer`). */
export type BlobTransferErrorReason =
  /** A chunk's bytes do not hash to the CID the manifest gives for it, or its size differs. */
  | 'chunk_mismatch'
  /** The manifest does not describe the blob asked for, or is malformed. */
  | 'manifest_mismatch'
  /** The stream broke the `file.read` / `file.put` frame order or ended with chunks missing. */
  | 'incomplete';

/** Why an event cannot be carried from one form to the other (`details.reason` of `event_conversion`). */
export type EventConversionReason =
  /** The event id has no counterpart (a reference time beyond 48 bits, a prefixed id such as `evt:…`). */
  | 'unconvertible_event_id'
  /** The timestamp has no counterpart in the other form. */
  | 'unconvertible_timestamp'
  /** A number the contract cannot carry (an integer beyond 2⁵³, a non-finite value). */
  | 'unconvertible_number'
  /** The converted event breaks the contract envelope or its type's `data` schema. */
  | 'invalid_contract_event';

/** Why an `hn1:` invite blob was refused (`details.reason` of `invalid_invite`). */
export type InvalidInviteReason =
  /** The blob does not start with `hn1:`. */
  | 'wrong_prefix'
  /** The rest is not base64url, or not UTF-8. */
  | 'invalid_encoding'
  /** The decoded bytes are not a JSON object. */
  | 'invalid_json'
  /** A required field is missing or not a string. */
  | 'invalid_field';

/**
 * The facts some codes carry besides their message. Each field names the codes that set it; every
 * other code leaves it out.
 */
export interface HearthNetLocalErrorDetails {
  /**
   * Which rule was broken: `invalid_node_id` ({@link InvalidNodeIdReason}), `invalid_capability_name`
   * ({@link InvalidCapabilityNameReason}), `sse_protocol` ({@link SseProtocolErrorReason}),
   * `invalid_ulid` ({@link InvalidUlidReason}), `invalid_event` ({@link EventRejectionReason}),
   * `invalid_snapshot` (the verdict's {@link SnapshotRejectionReason}), `blob_transfer`
   * ({@link BlobTransferErrorReason}), `event_conversion` ({@link EventConversionReason}),
   * `invalid_invite` ({@link InvalidInviteReason}).
   */
  readonly reason?:
    | InvalidNodeIdReason
    | InvalidCapabilityNameReason
    | SseProtocolErrorReason
    | InvalidUlidReason
    | EventRejectionReason
    | SnapshotRejectionReason
    | BlobTransferErrorReason
    | EventConversionReason
    | InvalidInviteReason;
  /**
   * The rejected value, as received: `invalid_node_id`, `invalid_content_id`, `invalid_chunk_size`,
   * `invalid_capability_name`, `invalid_capability_version`, `invalid_ulid`, `invalid_lamport`,
   * `invalid_timestamp`, `unknown_topic`, `invalid_reference_event_id`, `invalid_reference_timestamp`.
   */
  readonly value?: unknown;
  /** `duplicate_capability`, `schema_validation`: `name@version` of the capability. */
  readonly capability?: string;
  /** `schema_validation`: which part of the call was checked. */
  readonly part?: CapabilityPayloadPart;
  /** `schema_validation`: every rule that failed, first one first. */
  readonly issues?: readonly SchemaIssue[];
  /** `unexpected_response`: the HTTP status of the response. */
  readonly status?: number;
  /** `slow_consumer`: which bound the peer passed; also the WebSocket close reason. */
  readonly limit?: SlowConsumerLimit;
  /** `event_conflict`: the `event_id` that is stored with different content. */
  readonly eventId?: string;
  /** `unauthorized_signer`: the node id of the refused key. */
  readonly nodeId?: string;
  /** `sync_protocol`: the request path that got the bad answer, e.g. `/sync/heads`. */
  readonly requestPath?: string;
  /** `local_only_topic`, `invalid_topic_payload`: the topic. */
  readonly topic?: string;
  /** `missing_chunks`: the blob CID; `corrupt_chunk`: the CID of the stored chunk. */
  readonly cid?: string;
  /** `chunk_mismatch`, `blob_transfer` (a chunk that fails verification): the CID the bytes should have. */
  readonly expectedCid?: string;
  /** `chunk_mismatch`, `corrupt_chunk`, `blob_transfer` (a chunk that fails verification): what the bytes hash to. */
  readonly actualCid?: string;
  /** `blob_transfer` (a chunk that fails verification): the chunk's index in the manifest. */
  readonly index?: number;
  /** `missing_chunks`: indexes of the chunks not held, ascending. */
  readonly missing?: readonly number[];
  /** `reference_json_syntax`: the character offset where parsing stopped. */
  readonly offset?: number;
  /** The key-file codes (`missing_seed_file` … `io_error`): the file (or folder) concerned. */
  readonly file?: string;
}

/** What a {@link HearthNetLocalError} carries besides its code and message. */
export interface HearthNetLocalErrorOptions extends ErrorOptions {
  /** The argument, field or JSON path that failed (`''` or `$` for the value as a whole). */
  readonly path?: string;
  /** Whether the same call may succeed when made again unchanged (default `false`). */
  readonly retryable?: boolean;
  /** Facts particular to the code (see {@link HearthNetLocalErrorDetails}). */
  readonly details?: HearthNetLocalErrorDetails;
}

/**
 * The one error hearthnet throws for a value or an operation it refuses locally (not a peer's answer):
 * switch on `code`. `path` names the argument, field or JSON path that failed (`''` or `$` for the
 * value as a whole), `details` the facts particular to a code, `cause` the underlying error. A peer's
 * refusal (contract §9) is a `HearthNetError` instead; a server answers a local error thrown in a
 * handler as `internal_error`, except where the code says otherwise (`schema_validation` of a request
 * and the blob store codes: `bad_request`; `corrupt_chunk`: `internal_error` with its message).
 *
 * @example
 * ```ts
 * try {
 *   parseNodeId(text);
 * } catch (error) {
 *   if (error instanceof HearthNetLocalError && error.code === 'invalid_node_id') {
 *     console.log(error.details?.reason); // 'short_form'
 *   }
 * }
 * ```
 */
export class HearthNetLocalError extends Error {
  override readonly name = 'HearthNetLocalError';
  /** Which condition failed; stable across releases. */
  readonly code: HearthNetLocalErrorCode;
  /** The argument, field or JSON path that failed (`''` or `$` for the value as a whole). */
  readonly path: string;
  /** Whether the same call may succeed when made again unchanged. */
  readonly retryable: boolean;
  /** Facts particular to the code; empty for codes that carry none. */
  readonly details: HearthNetLocalErrorDetails;

  constructor(code: HearthNetLocalErrorCode, message: string, options: HearthNetLocalErrorOptions = {}) {
    const { path = '', retryable = false, details, ...errorOptions } = options;
    super(message, errorOptions);
    this.code = code;
    this.path = path;
    this.retryable = retryable;
    this.details = details ?? {};
  }
}

/** Which part of a capability call a validator checks. */
export type CapabilityPayloadPart = 'request' | 'response' | 'stream';

/** One rule a value broke, at a JSON path such as `$.input.messages[0].role`. */
export interface SchemaIssue {
  readonly path: string;
  readonly message: string;
}

/**
 * Why an event was refused, by `verifyEvent` (a received event) or `createEvent` (input):
 * - `malformed_envelope`: not an object, or an envelope field missing, mistyped or unknown (§7.1);
 * - `unsupported_schema_version`: `schema_version` is not 1 (§2.3);
 * - `unknown_event_type`: `event_type` is not one of the known types (§7.2);
 * - `invalid_data`: `data` does not match the schema of its type;
 * - `invalid_signature`: the signature does not verify under `author`.
 */
export type EventRejectionReason =
  | 'malformed_envelope'
  | 'unsupported_schema_version'
  | 'unknown_event_type'
  | 'invalid_data'
  | 'invalid_signature';

/**
 * Why a snapshot was refused, and its contract §9 code:
 * - `malformed` (`bad_request`): not the §7.5 shape, or `covers_events_up_to` differs from `lamport`;
 * - `inconsistent_state` (`bad_request`): its views are not those of its records, or its records are
 *   of another community or of none;
 * - `wrong_community` (`bad_request`): the trusted membership is of another community;
 * - `mismatch` (`bad_request`): its state differs from the replay of the trusted events;
 * - `signer_not_anchor` (`unauthorized`): signed by a member that is not an anchor at the head;
 * - `invalid_signature` (`invalid_signature`): signed by nobody in the community.
 */
export type SnapshotRejectionReason =
  | 'malformed'
  | 'inconsistent_state'
  | 'wrong_community'
  | 'mismatch'
  | 'signer_not_anchor'
  | 'invalid_signature';

/**
 * Which bound a peer that does not keep up passed:
 * - `drain_timeout`: bytes written to it stayed queued (not handed to the OS) longer than allowed —
 *   it does not read its socket;
 * - `ack_timeout`: the ack window stayed full longer than allowed — it does not acknowledge.
 */
export type SlowConsumerLimit = 'drain_timeout' | 'ack_timeout';
