import { AgentConnectorError } from '../contract/errors.js';

/** The optional parts of a {@link SkillNotFoundError}. */
export interface SkillNotFoundOptions {
  /** The version `load(name, version)` asked for, when the skill exists but that version does not. */
  readonly version?: string;
  /** The underlying error. */
  readonly cause?: unknown;
}

/**
 * A `SkillStore` call named a skill, or a version of one, that the store does not hold:
 * - `skill_not_found`: `load`, `metadata`, `versions`, `delete` or `update_status` named a missing skill
 *   (`query` never throws this: no match is an empty array);
 * - `version_not_found`: `load(name, version)` named a version of an existing skill that the store cannot
 *   return (`details.version` holds it).
 *
 * A separate class because the contract names it and the runtime keys control flow on it (a missing
 * skill is an answer, not a fault). Permanent for the same arguments, so never retryable.
 * `connector_type` is always `'skill_store'`; `implementation` names the store class that threw.
 *
 * @example
 * throw new SkillNotFoundError(name, 'MySkillStore');
 * throw new SkillNotFoundError(name, 'MySkillStore', { version });
 */
export class SkillNotFoundError extends AgentConnectorError {
  override readonly name = 'SkillNotFoundError';
  declare readonly code: 'skill_not_found' | 'version_not_found';
  /** The connector kind, as the contract's capability surface names it. */
  readonly connector_type = 'skill_store';
  /** The skill the call was about. */
  readonly skill_name: string;
  /** The store implementation that threw, such as `'FilesystemSkillStore'`. */
  readonly implementation: string;

  constructor(skill_name: string, implementation: string, options: SkillNotFoundOptions = {}) {
    const { version, cause } = options;
    if (version === undefined) {
      super('skill_not_found', `Skill not found: '${skill_name}'`, { cause });
    } else {
      super('version_not_found', `Version '${version}' of skill '${skill_name}' not found`, {
        details: { version },
        cause,
      });
    }
    this.skill_name = skill_name;
    this.implementation = implementation;
  }
}

/**
 * A `DataStore` query carried filter keys that the substrate does not declare in
 * `manifest().supported_filters`, and the caller did not opt out with `permissive_filters: true`. The
 * substrate was not called: an undeclared filter would otherwise be dropped silently and the caller would
 * read unscoped results.
 *
 * A separate class because the contract names it and callers branch on it (drop the keys, opt out, or
 * pick another substrate). Not retryable.
 */
export class UnsupportedFilterError extends AgentConnectorError {
  override readonly name = 'UnsupportedFilterError';
  declare readonly code: 'unsupported_filter';
  /** The offending keys, in the query object's key order. */
  readonly unsupported_keys: readonly string[];
  /** The keys the substrate declares (empty when it declares none). */
  readonly supported_keys: readonly string[];
  /** Who enforced the check, for the message (a bridge or store name). */
  readonly substrate: string;
  /** What the caller can do about it, kept out of `message` as the reference runtime does. */
  readonly remediation: string;

  constructor(
    unsupported_keys: readonly string[],
    supported_keys: readonly string[],
    substrate: string,
    options?: ErrorOptions,
  ) {
    const quote = (keys: readonly string[]) => keys.map((key) => `'${key}'`).join(', ');
    // The reference runtime's message, word for word (only the substrate name is ours).
    super(
      'unsupported_filter',
      `\`data_read\` query against ${substrate} carried unsupported filter key(s): ${quote(unsupported_keys)}. ` +
        `Substrate declares supported_filters: [${quote(supported_keys) || '(none)'}].`,
      { cause: options?.cause },
    );
    this.unsupported_keys = Object.freeze([...unsupported_keys]);
    this.supported_keys = Object.freeze([...supported_keys]);
    this.substrate = substrate;
    this.remediation =
      'Drop the undeclared key(s), which the substrate would ignore; or pass permissive_filters: true to ' +
      'accept that they are advisory; or query a substrate whose manifest declares them.';
  }
}

/**
 * The `storage_validation` error: `path` names the argument or field (`''` for the value as a whole) and
 * prefixes the message when there is one (`body: must be a string`). Store implementations in other
 * packages reach it as `storageConventions.storageValidationError`.
 */
export function storageValidationError(message: string, path = '', cause?: unknown): AgentConnectorError {
  return new AgentConnectorError('storage_validation', path === '' ? message : `${path}: ${message}`, {
    path,
    cause,
  });
}

/**
 * The `storage_conflict` error a `SkillStore.store()` throws for `skill_name`; `details` carries
 * `connector_type: 'skill_store'`, `skill_name`, `implementation` and `reason`. Store implementations in
 * other packages reach it as `storageConventions.storageConflictError`.
 */
export function storageConflictError(
  skill_name: string,
  reason: string,
  implementation: string,
): AgentConnectorError {
  return new AgentConnectorError('storage_conflict', `Storage conflict on '${skill_name}': ${reason}`, {
    details: { connector_type: 'skill_store', skill_name, implementation, reason },
  });
}
