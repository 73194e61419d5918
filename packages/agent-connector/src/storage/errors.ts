/**
 * Base of the errors a `SkillStore` throws for a named skill: catch it to handle them all. Every one is
 * permanent for the same arguments (retrying the call gives the same answer), so none is retryable.
 * `connector_type` is always `'skill_store'`; `implementation` names the store class that threw.
 */
export abstract class SkillStoreError extends Error {
  /** A stable, machine-readable identifier of the condition. */
  abstract readonly code: string;
  /** The connector kind, as the contract's capability surface names it. */
  readonly connector_type = 'skill_store';
  /** The skill the call was about. */
  readonly skill_name: string;
  /** The store implementation that threw, such as `'FilesystemSkillStore'`. */
  readonly implementation: string;

  constructor(message: string, skill_name: string, implementation: string, options?: ErrorOptions) {
    super(message, options);
    this.skill_name = skill_name;
    this.implementation = implementation;
  }
}

/**
 * `load`, `metadata`, `versions`, `delete` or `update_status` named a skill the store does not hold.
 * (`query` never throws this: no match is an empty array.) Not retryable.
 */
export class SkillNotFoundError extends SkillStoreError {
  override readonly name = 'SkillNotFoundError';
  readonly code = 'skill_not_found';

  constructor(skill_name: string, implementation: string, options?: ErrorOptions) {
    super(`Skill not found: '${skill_name}'`, skill_name, implementation, options);
  }
}

/** `load(name, version)` named a version of an existing skill that the store cannot return. Not retryable. */
export class VersionNotFoundError extends SkillStoreError {
  override readonly name = 'VersionNotFoundError';
  readonly code = 'version_not_found';
  /** The version that was asked for. */
  readonly version: string;

  constructor(skill_name: string, version: string, implementation: string, options?: ErrorOptions) {
    super(`Version '${version}' of skill '${skill_name}' not found`, skill_name, implementation, options);
    this.version = version;
  }
}

/**
 * `store` refused a write that conflicts with what the store holds or allows: a name the substrate cannot
 * hold, or an explicit `metadata.author` that differs from the locked first-write author. Not retryable.
 */
export class StorageConflictError extends SkillStoreError {
  override readonly name = 'StorageConflictError';
  readonly code = 'storage_conflict';
  /** Why the write was refused. */
  readonly reason: string;

  constructor(skill_name: string, reason: string, implementation: string, options?: ErrorOptions) {
    super(`Storage conflict on '${skill_name}': ${reason}`, skill_name, implementation, options);
    this.reason = reason;
  }
}

/**
 * A `DataStore` query carried filter keys that the substrate does not declare in
 * `manifest().supported_filters`, and the caller did not opt out with `permissive_filters: true`. The
 * substrate was not called: an undeclared filter would otherwise be dropped silently and the caller would
 * read unscoped results. Not retryable; drop the keys, opt out, or use a substrate that declares them.
 */
export class UnsupportedFilterError extends Error {
  override readonly name = 'UnsupportedFilterError';
  readonly code = 'unsupported_filter';
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
      `\`data_read\` query against ${substrate} carried unsupported filter key(s): ${quote(unsupported_keys)}. ` +
        `Substrate declares supported_filters: [${quote(supported_keys) || '(none)'}].`,
      options,
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
 * A value crossing the storage contract failed its rule: an argument of a storage helper, an input a store
 * validates (a status, a filter, a write), or a record or manifest a store returned. `path` names the
 * argument or field (`''` for the value as a whole). Not retryable.
 */
export class StorageValidationError extends Error {
  override readonly name = 'StorageValidationError';
  readonly code = 'storage_validation';
  /** The argument or field that failed, such as `'skills[2].version'`. */
  readonly path: string;

  constructor(message: string, path = '', options?: ErrorOptions) {
    super(path === '' ? message : `${path}: ${message}`, options);
    this.path = path;
  }
}
