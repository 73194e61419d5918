/**
 * The fields of a gateway `SessionSource` that the session key is built from, under their wire
 * names. Structural on purpose: any SessionSource-shaped object (a parsed wire source included) fits.
 *
 * The values are what the gateway holds after reading the wire, which does not stringify ids: a
 * numeric `chat_id` stays a number and is rendered as Python's `str()` would (`-100123`). Absent and
 * `null` are both Python `None`, except for `chat_type`, which defaults to `"dm"` when absent while an
 * explicit `null` stays `None` and lands in a non-DM key as the text `"None"`.
 *
 * Field types are `unknown` so that any source type fits, JSON-typed ones included; the values that
 * can be keyed are the `SessionKeyScalar`s and plain JSON arrays and objects, which are written as
 * Python's `str()` writes them (`['9001']`, `{'a': 1}`), as the gateway does with whatever its wire
 * reader kept. Anything else (a `Date`, a function) makes `buildSessionKey` throw
 * `RelayError` `invalid_session_source`, and so does an integral number beyond ±(2^53 − 1) the key writes.
 *
 * `guild_id` is deliberately not here: the gateway's relay path never reads it, so a source that
 * carries only the legacy alias is keyed as if it had no scope. Send `scope_id`.
 */
export interface SessionKeySource {
  /**
   * The resolved platform value (`discord`, `slack`, `whatsapp`, a plugin platform such as `irc`…),
   * written into the key verbatim. Only the exact values `slack` and `whatsapp` change the algorithm;
   * case folding and the unknown-name → `relay` fallback happen earlier, when the wire source is read.
   */
  readonly platform: string;
  /** `dm` (exact, lowercase) selects the DM rules; anything else, `null` included, is a group chat. */
  readonly chat_type?: unknown;
  readonly chat_id?: unknown;
  readonly thread_id?: unknown;
  readonly user_id?: unknown;
  /** Wins over `user_id` whenever truthy. */
  readonly user_id_alt?: unknown;
  /** Slack workspace; ignored on every other platform (Discord guilds never enter the key). */
  readonly scope_id?: unknown;
  /** Read only by the `upstream-2026-09-21` dialect: keys a channel message on the thread it opens. */
  readonly prospective_thread_id?: unknown;
}
