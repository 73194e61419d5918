import { readStrictJson } from '../canonical-json/strict-json.js';
import type { KeyPair } from '../crypto/key-pair.js';
import { type PayloadVerification, signPayload, verifyPayload } from '../crypto/payload-signature.js';
import { base64UrlDecodeLenient, base64UrlEncode } from '../encoding.js';
import { HearthNetLocalError } from '../errors.js';
import { pythonAsciiJson } from './reference-json.js';

/** The prefix of a reference invite blob. */
export const INVITE_BLOB_PREFIX = 'hn1:';

/**
 * A reference invite (`ui/onboarding.make_invite`): the fields `sign_payload` signs, plus the
 * signature. `relay_url` and `relay_token` appear only when non-empty.
 */
export interface ReferenceInvite {
  readonly community_id: string;
  readonly community_name: string;
  readonly inviter_node_id: string;
  readonly invitee_node_id: string;
  /** Written by the inviter; the reference compares these as strings. */
  readonly issued_at: string;
  readonly expires_at: string;
  readonly relay_url?: string;
  readonly relay_token?: string;
  /** `ed25519:<base64url>` over the canonical JSON of the other fields (contract §1.3). */
  readonly signature: string;
}

/** What {@link makeReferenceInvite} takes: an invite without the inviter (the key's node id) and signature. */
export type ReferenceInviteInput = Omit<ReferenceInvite, 'inviter_node_id' | 'signature'>;

/** The blob's short keys, in the order the reference writes them. */
const BLOB_KEYS = [
  ['cid', 'community_id'],
  ['cn', 'community_name'],
  ['inv', 'inviter_node_id'],
  ['tee', 'invitee_node_id'],
  ['iat', 'issued_at'],
  ['exp', 'expires_at'],
  ['sig', 'signature'],
  ['ru', 'relay_url'],
  ['rt', 'relay_token'],
] as const;
const OPTIONAL = new Set<string>(['relay_url', 'relay_token']);
/** Fields `decode_invite` reads with a default of `""` when the blob has no such key. */
const EMPTY_WHEN_ABSENT = new Set<string>(['community_name', 'signature']);

/**
 * Makes and signs a reference invite with the inviter's key, as `make_invite` does: the signature
 * covers the canonical JSON of the fields; empty `relay_url` / `relay_token` are left out.
 *
 * @example
 * const blob = encodeReferenceInvite(
 *   makeReferenceInvite({ community_id, community_name: 'Allotments', invitee_node_id, issued_at, expires_at }, me),
 * );
 */
export function makeReferenceInvite(input: ReferenceInviteInput, key: KeyPair): ReferenceInvite {
  const fields: Record<string, string> = {
    community_id: input.community_id,
    community_name: input.community_name,
    inviter_node_id: key.nodeId,
    invitee_node_id: input.invitee_node_id,
    issued_at: input.issued_at,
    expires_at: input.expires_at,
  };
  if (input.relay_url) fields.relay_url = input.relay_url;
  if (input.relay_token) fields.relay_token = input.relay_token;
  return signPayload(fields, key) as unknown as ReferenceInvite;
}

/**
 * Writes an invite as the reference's `hn1:` blob: `hn1:` + unpadded base64url of the compact,
 * ASCII-escaped JSON of `{cid, cn, inv, tee, iat, exp, sig[, ru][, rt]}` in that order.
 *
 * @throws {HearthNetLocalError} `invalid_invite` (`invalid_field`) when a field is not a string.
 * @example
 * encodeReferenceInvite(invite); // 'hn1:eyJjaWQiOiJlZDI1NTE5Oi…'
 */
export function encodeReferenceInvite(invite: ReferenceInvite): string {
  const blob: Record<string, string> = {};
  for (const [short, field] of BLOB_KEYS) {
    const value: unknown = (invite as unknown as Record<string, unknown>)[field];
    if (OPTIONAL.has(field) && (value === undefined || value === '')) continue;
    if (typeof value !== 'string') {
      throw new HearthNetLocalError('invalid_invite', `the invite's ${field} must be a string`, {
        details: { reason: 'invalid_field' },
      });
    }
    blob[short] = value;
  }
  const json = pythonAsciiJson(blob, { sortKeys: false });
  return INVITE_BLOB_PREFIX + base64UrlEncode(new TextEncoder().encode(json));
}

/**
 * Reads an `hn1:` invite blob (padding, the `+/` alphabet and stray characters are tolerated, as by
 * the reference). Like the reference's `decode_invite`, it does not check the signature or expiry:
 * call {@link verifyReferenceInvite}. As there, an absent `cn` or `sig` reads as `""` (such an invite
 * then fails verification); unlike there, every field present must be a string and a UTF-8 byte order
 * mark is refused, as Python's `json.loads` refuses it.
 *
 * @throws {HearthNetLocalError} `invalid_invite` with `details.reason` `wrong_prefix`, `invalid_encoding`,
 *   `invalid_json` or `invalid_field`.
 * @example
 * const invite = decodeReferenceInvite(blob);
 * verifyReferenceInvite(invite).valid; // true for an untouched invite
 */
export function decodeReferenceInvite(blob: string): ReferenceInvite {
  if (typeof blob !== 'string' || !blob.startsWith(INVITE_BLOB_PREFIX)) {
    throw new HearthNetLocalError('invalid_invite', `an invite blob starts with ${INVITE_BLOB_PREFIX}`, {
      details: { reason: 'wrong_prefix' },
    });
  }
  let text: string;
  try {
    const bytes = base64UrlDecodeLenient(blob.slice(INVITE_BLOB_PREFIX.length));
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (error) {
    throw new HearthNetLocalError('invalid_invite', 'the invite blob is not base64url of UTF-8 text', {
      cause: error,
      details: { reason: 'invalid_encoding' },
    });
  }
  // Signed: read strictly, so that no reader of the same blob sees another invite (a repeated key).
  const parsed = readStrictJson(
    text,
    'the invite blob',
    (message, options) =>
      new HearthNetLocalError('invalid_invite', message, { ...options, details: { reason: 'invalid_json' } }),
  );
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new HearthNetLocalError('invalid_invite', 'the invite blob does not hold a JSON object', {
      details: { reason: 'invalid_json' },
    });
  }
  const short = parsed as Record<string, unknown>;
  const invite: Record<string, string> = {};
  for (const [key, field] of BLOB_KEYS) {
    const value = Object.hasOwn(short, key) ? short[key] : EMPTY_WHEN_ABSENT.has(field) ? '' : undefined;
    if (value === undefined && OPTIONAL.has(field)) continue;
    if (typeof value !== 'string') {
      throw new HearthNetLocalError(
        'invalid_invite',
        `the invite blob's ${key} (${field}) must be a string`,
        { details: { reason: 'invalid_field' } },
      );
    }
    if (OPTIONAL.has(field) && value === '') continue;
    invite[field] = value;
  }
  return invite as unknown as ReferenceInvite;
}

/** Why {@link verifyReferenceInvite} refused an invite. */
export type ReferenceInviteFailureReason = 'invalid_signature' | 'expired';

/** The verdict of {@link verifyReferenceInvite}. */
export type ReferenceInviteVerification =
  | { readonly valid: true }
  | { readonly valid: false; readonly reason: ReferenceInviteFailureReason; readonly message: string };

/** Options of {@link verifyReferenceInvite}. */
export interface VerifyReferenceInviteOptions {
  /**
   * The current time as the inviter writes `expires_at`; when given, an invite with
   * `expires_at < now` (string comparison, as the reference does) is `expired`.
   */
  readonly now?: string;
}

/**
 * Checks what the reference's `decode_invite` leaves out: the signature under `inviter_node_id`
 * (lenient decoding, as the reference's `verify_payload`), then — with `now` — expiry.
 */
export function verifyReferenceInvite(
  invite: ReferenceInvite,
  options: VerifyReferenceInviteOptions = {},
): ReferenceInviteVerification {
  const signed: Record<string, unknown> = { ...invite };
  const verdict: PayloadVerification = verifyPayload(signed, invite.inviter_node_id, {
    lenientEncoding: true,
  });
  if (!verdict.valid) {
    return {
      valid: false,
      reason: 'invalid_signature',
      message: `the invite's signature does not verify under inviter_node_id (${verdict.reason})`,
    };
  }
  if (options.now !== undefined && invite.expires_at < options.now) {
    return { valid: false, reason: 'expired', message: `the invite expired at ${invite.expires_at}` };
  }
  return { valid: true };
}
