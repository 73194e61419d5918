import { storageValidationError } from '../storage/errors.js';
import { parseStorageValue } from '../storage/parse-storage-value.js';
import {
  type SkillFilter,
  type SkillMeta,
  type SkillStatus,
  skillFilterSchema,
} from '../storage/skill-store.js';

/** The parts of a `SkillFilter` a {@link FilesystemSkillStore} honours, checked and ready to apply. */
export interface FilesystemSkillFilter {
  readonly statuses?: ReadonlySet<SkillStatus>;
  readonly namePattern?: RegExp;
  readonly since?: number;
  readonly author?: string;
  readonly offset: number;
  readonly limit?: number;
}

/**
 * Checks a `query()` filter and keeps what this store honours: `status` (one or several), `name_pattern`
 * (a JavaScript regular expression without flags, tested against the whole name with `test`, as the
 * reference store does), `since` (unix seconds, compared with `updated_at`), `author`, `offset` and
 * `limit`. `type` and `tag` are projections of the body this store does not index: they are ignored, as
 * are unknown keys (the filter is open).
 *
 * @throws {AgentConnectorError} `storage_validation`: when a known key has the wrong type, or `name_pattern`
 *   is not a valid regular expression.
 */
export function compileSkillFilter(filter: unknown): FilesystemSkillFilter {
  const parsed: SkillFilter = parseStorageValue(skillFilterSchema, filter ?? {}, 'filter');
  return {
    ...(parsed.status === undefined
      ? {}
      : { statuses: new Set(Array.isArray(parsed.status) ? parsed.status : [parsed.status]) }),
    ...(parsed.name_pattern === undefined ? {} : { namePattern: compileNamePattern(parsed.name_pattern) }),
    ...(parsed.since === undefined ? {} : { since: parsed.since }),
    ...(parsed.author === undefined ? {} : { author: parsed.author }),
    offset: parsed.offset ?? 0,
    ...(parsed.limit === undefined ? {} : { limit: parsed.limit }),
  };
}

function compileNamePattern(pattern: string): RegExp {
  try {
    return new RegExp(pattern);
  } catch (error) {
    throw storageValidationError(
      `is not a valid regular expression: ${(error as Error).message}`,
      'filter.name_pattern',
      error,
    );
  }
}

/** Whether a skill name passes the filter's `name_pattern` (checked before any file is read). */
export function acceptsName(filter: FilesystemSkillFilter, name: string): boolean {
  return filter.namePattern === undefined || filter.namePattern.test(name);
}

/** Orders names by code point (for the ASCII names this store holds, plain `<`; not `localeCompare`). */
export function compareNames(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}

/**
 * The skills a filter selects: sorted by name in code-point order, narrowed by status, `since` and
 * author, then `offset` skipped and at most `limit` kept.
 */
export function selectSkills(filter: FilesystemSkillFilter, metas: readonly SkillMeta[]): SkillMeta[] {
  const { statuses, since, author, offset, limit } = filter;
  const selected = metas
    .filter(
      (meta) =>
        acceptsName(filter, meta.name) &&
        (statuses === undefined || statuses.has(meta.status)) &&
        (since === undefined || meta.updated_at >= since) &&
        (author === undefined || meta.author === author),
    )
    .sort((left, right) => compareNames(left.name, right.name));
  return selected.slice(offset, limit === undefined ? undefined : offset + limit);
}
