import { SkillStoreError } from '@agentwire/agent-connector';
import { SqliteStorageError } from '../shared/errors.js';

export { SchemaMigrationError, SqliteStorageError, StoreClosedError } from '../shared/errors.js';

/**
 * `query()` asked for a search mode the data store does not offer (see `manifest().supported_modes`).
 * Not retryable: use a declared mode.
 */
export class UnsupportedQueryModeError extends SqliteStorageError {
  override readonly name = 'UnsupportedQueryModeError';
  readonly code = 'unsupported_query_mode';
  /** The mode that was asked for. */
  readonly mode: string;
  /** The modes the store declares. */
  readonly supported_modes: readonly string[];

  constructor(mode: string, supported_modes: readonly string[], options?: ErrorOptions) {
    super(
      `query mode '${mode}' is not supported; supported_modes: [${supported_modes.map((m) => `'${m}'`).join(', ')}]`,
      options,
    );
    this.mode = mode;
    this.supported_modes = Object.freeze([...supported_modes]);
  }
}

/**
 * A `raw:` full-text query is not valid FTS5 syntax (an unbalanced quote, a dangling `OR`, an unknown
 * column). Only `raw:` queries can fail this way: plain queries are quoted token by token. Not retryable
 * with the same text; `cause` holds SQLite's message.
 */
export class InvalidFtsQueryError extends SqliteStorageError {
  override readonly name = 'InvalidFtsQueryError';
  readonly code = 'invalid_fts_query';
  /** The FTS5 expression SQLite refused (the query without its `raw:` prefix). */
  readonly expression: string;

  constructor(expression: string, options?: ErrorOptions) {
    const reason = options?.cause instanceof Error ? `: ${options.cause.message}` : '';
    super(`raw FTS5 query ${JSON.stringify(expression)} is not valid${reason}`, options);
    this.expression = expression;
  }
}

/**
 * `update_status(name, 'Approved')` on a store in secured mode, for a skill whose body carries no approval
 * signature. A status change alone cannot grant approval there: the approve flow signs the body and
 * `store()`s it. Not retryable.
 */
export class ApprovalRequiredError extends SkillStoreError {
  override readonly name = 'ApprovalRequiredError';
  readonly code = 'approval_required';

  constructor(skill_name: string, implementation: string, options?: ErrorOptions) {
    super(
      `Skill '${skill_name}' carries no approval signature; in secured mode a status change alone ` +
        'cannot approve it (store the signed body instead)',
      skill_name,
      implementation,
      options,
    );
  }
}
