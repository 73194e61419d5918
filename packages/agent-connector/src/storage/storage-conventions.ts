import { parseStorageValue, UNIX_SECONDS_LIMIT, unixSeconds } from './conventions.js';
import { CURATED_DATA_FIELDS, enforceSupportedFilters, summarizeContent } from './data-store.js';
import { storageConflictError, storageValidationError } from './errors.js';
import {
  catalogChangeToken,
  changeTokenFromLines,
  contentHash,
  contentIdentity,
  EMPTY_CATALOG_CHANGE_TOKEN,
  readStatusHeader,
  statusOfSkill,
  versionFromHash,
  withStatusHeader,
} from './skill-store.js';

/**
 * The storage conventions a `SkillStore` or `DataStore` implementation follows, as one kit: the helpers
 * the bundled stores (`FilesystemSkillStore`, `@agentwire/sqlite`'s stores) and the conformance suites
 * use, so that every store hashes, versions, tokens, summarises and filters byte for byte alike. Each
 * member throws an `AgentConnectorError` with code `storage_validation` for an argument of the wrong
 * kind.
 *
 * Skill stores:
 * - `contentHash(body)` — SHA-256 (lowercase hex) of the body **as persisted**; `versionFromHash(hash)`
 *   — its first 12 hex digits; `contentIdentity(body)` — both at once (`{ content_hash, version }`).
 * - `catalogChangeToken(skills)` — the `version()` token over `{ name, status, version }` revisions;
 *   `changeTokenFromLines(lines)` — the digest under it, for a store that fingerprints something else;
 *   `EMPTY_CATALOG_CHANGE_TOKEN` — the token of an empty catalog.
 * - `readStatusHeader(body)` / `statusOfSkill(body)` / `withStatusHeader(body, status)` — the
 *   `# Status:` header, read and rewritten as the reference stores do.
 *
 * Data stores:
 * - `summarizeContent(content)` — the `summary` of written content (first line, at most 200 units).
 * - `enforceSupportedFilters(filters, supported, substrate?)` — fail-closed filter-key check; throws
 *   `UnsupportedFilterError`.
 * - `CURATED_DATA_FIELDS` — the `PortableData` fields a store returns at the top level.
 *
 * Both:
 * - `parseStorageValue(schema, value, label?)` — checks a value against one of
 *   `agentConnectorSchemas`' storage schemas and throws `storage_validation` naming the field.
 * - `unixSeconds(epochMs?)` — the whole unix seconds a store writes; `UNIX_SECONDS_LIMIT` — the first
 *   value the seconds fields refuse (`1e11`: larger values are milliseconds).
 * - `storageValidationError(message, path?, cause?)` — the `storage_validation` `AgentConnectorError` a
 *   store throws for a bad argument or field: `path` names it and prefixes the message
 *   (`name: must be a string`); `storageConflictError(skill_name, reason, implementation)` — the
 *   `storage_conflict` one a `SkillStore.store()` throws when it refuses a write (`details` carries
 *   `connector_type`, `skill_name`, `implementation` and `reason`). The bundled stores build their
 *   errors with these, so every store words and shapes them alike.
 *
 * @example
 * ```ts
 * import { agentConnectorSchemas, storageConventions } from '@agentwire/agent-connector';
 *
 * const body = storageConventions.withStatusHeader('# Skill: triage\nbody\n', 'Draft');
 * const { content_hash, version } = storageConventions.contentIdentity(body);
 * const status = storageConventions.parseStorageValue(agentConnectorSchemas.skillStatus, input, 'status');
 * const token = storageConventions.catalogChangeToken(await store.query());
 * ```
 */
export const storageConventions = /* @__PURE__ */ Object.freeze({
  contentHash,
  versionFromHash,
  contentIdentity,
  catalogChangeToken,
  changeTokenFromLines,
  EMPTY_CATALOG_CHANGE_TOKEN,
  readStatusHeader,
  statusOfSkill,
  withStatusHeader,
  summarizeContent,
  enforceSupportedFilters,
  CURATED_DATA_FIELDS,
  parseStorageValue,
  unixSeconds,
  UNIX_SECONDS_LIMIT,
  storageValidationError,
  storageConflictError,
});
