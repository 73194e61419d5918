import { join } from 'node:path';
import { storageValidationError } from '../storage/errors.js';

/**
 * The skill names a {@link FilesystemSkillStore} can hold: an ASCII letter or digit, then ASCII letters,
 * digits, `_`, `-` or `.` — safe as a file name on every platform, never a path, never hidden.
 */
export const SKILL_NAME_PATTERN = /^[A-Za-z0-9][\w\-.]*$/;

/** Suffix of a skill's source file: `<dir>/<name>.skill.md`. */
export const SKILL_FILE_SUFFIX = '.skill.md';
/** Suffix of a skill's version log: `<dir>/<name>.versions.jsonl`. */
export const VERSION_LOG_SUFFIX = '.versions.jsonl';

/** Whether `name` matches {@link SKILL_NAME_PATTERN}. */
export function isStorableSkillName(name: string): boolean {
  return SKILL_NAME_PATTERN.test(name);
}

/**
 * Checks that a caller passed a string as a skill name.
 *
 * @throws {AgentConnectorError} `storage_validation`: when `name` is not a string.
 */
export function assertNameIsString(name: unknown): asserts name is string {
  if (typeof name !== 'string') throw storageValidationError('must be a string', 'name');
}

/** The name a `*.skill.md` directory entry holds, or `undefined` for any other entry or an unstorable name. */
export function skillNameOfFile(fileName: string): string | undefined {
  if (!fileName.endsWith(SKILL_FILE_SUFFIX)) return undefined;
  const name = fileName.slice(0, -SKILL_FILE_SUFFIX.length);
  return isStorableSkillName(name) ? name : undefined;
}

/** Where one skill's files live. */
export interface SkillPaths {
  readonly source: string;
  readonly log: string;
}

/** The two files of skill `name` under `dir`; `name` must be storable. */
export function skillPaths(dir: string, name: string): SkillPaths {
  return { source: join(dir, `${name}${SKILL_FILE_SUFFIX}`), log: join(dir, `${name}${VERSION_LOG_SUFFIX}`) };
}
