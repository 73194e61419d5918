import { storageValidationError } from './errors.js';
import type { SkillStatus } from './skill-store.js';

/** Horizontal white space only: a header never spills onto the next line. */
const SPACE = '[^\\S\\n\\r\\u2028\\u2029]';
/** The first `# Status: <value>` line; `Status` is case-sensitive, as in the reference stores. */
const STATUS_LINE = new RegExp(`^#${SPACE}*Status${SPACE}*:${SPACE}*(.+?)${SPACE}*$`, 'm');
/**
 * The header as the reference stores' rewrite finds it, which {@link withStatusHeader} mirrors byte for
 * byte: `\s` may cross line breaks, and the trailing `\s*$` takes every white space after the value up
 * to the last line break before the next non-blank line — so the blank lines right under a rewritten
 * header go with it (`…Approved\n\nbody` → `…Approved\nbody`).
 */
const REWRITTEN_STATUS = /^#\s*Status\s*:\s*.+?\s*$/m;
/** The `# Skill: <name>` line a new status header goes under, found as the reference stores find it. */
const REWRITTEN_SKILL = /^(#\s*Skill\s*:\s*.+?)\s*$/m;

const STATUS_BY_TOKEN: Readonly<Record<string, SkillStatus>> = {
  draft: 'Draft',
  approved: 'Approved',
  disabled: 'Disabled',
};

/** A skill body's `# Status:` header as written. */
export interface StatusHeader {
  /** The status its first token names (case-insensitive), or `null` when the token is none of the three. */
  readonly status: SkillStatus | null;
  /** Whatever follows the first token, such as an approval token `v3:<signature>`; `''` when nothing. */
  readonly rest: string;
  /** The whole header line as it appears in the body. */
  readonly line: string;
}

/**
 * Finds the first `# Status:` header of a skill body: a line `#`, optional spaces, `Status`, optional
 * spaces, `:`, then a non-empty value. The value's first white-space-separated token names the status
 * case-insensitively (`draft`, `APPROVED`); the remainder is kept as `rest` (secured mode writes an
 * approval token there). `null` when the body has no such line.
 *
 * Unlike the reference stores' regular expression, the spaces around the key never cross a line
 * break, so an empty `# Status:` line is not read as a header with the next line as its value.
 *
 * @throws {AgentConnectorError} `storage_validation`: when `source` is not a string.
 * @example
 * readStatusHeader('# Skill: triage\n# Status: approved v3:abc\n');
 * // { status: 'Approved', rest: 'v3:abc', line: '# Status: approved v3:abc' }
 */
export function readStatusHeader(source: string): StatusHeader | null {
  if (typeof source !== 'string') throw storageValidationError('must be a string', 'source');
  const match = STATUS_LINE.exec(source);
  if (match === null) return null;
  const value = match[1] ?? '';
  const [first = '', ...rest] = value.trim().split(/\s+/);
  return {
    status: STATUS_BY_TOKEN[first.toLowerCase()] ?? null,
    rest: rest.join(' '),
    line: match[0],
  };
}

/**
 * The status a skill body declares: its `# Status:` header's first token, or `'Draft'` when there is
 * no header or the token names no status (the convention both reference stores follow).
 *
 * @throws {AgentConnectorError} `storage_validation`: when `source` is not a string.
 * @example
 * statusOfSkill('# Skill: triage\n'); // 'Draft'
 * statusOfSkill('# Status: disabled\n'); // 'Disabled'
 */
export function statusOfSkill(source: string): SkillStatus {
  return readStatusHeader(source)?.status ?? 'Draft';
}

/**
 * Writes `# Status: <status>` into a skill body exactly as the reference stores do, so that
 * `content_hash` comes out as theirs: replaces the first status header (dropping any token after the
 * status, and the blank lines right under it), or, without one, puts it on the line after the first
 * `# Skill:` header (whose trailing blank lines go the same way), or at the very top when there is
 * none. Every other byte is kept. The reference's pattern lets white space cross line breaks, so
 * `# Status:` with its value on the next line is rewritten as a header here, although
 * {@link readStatusHeader} does not read it as one. This is how a store normalises a body on
 * `update_status` and on an overwrite that keeps the previous status.
 *
 * @throws {AgentConnectorError} `storage_validation`: when `source` is not a string or `status` is not a
 *   skill status.
 * @example
 * withStatusHeader('# Skill: triage\nbody\n', 'Approved'); // '# Skill: triage\n# Status: Approved\nbody\n'
 */
export function withStatusHeader(source: string, status: SkillStatus): string {
  if (typeof source !== 'string') throw storageValidationError('must be a string', 'source');
  if (!Object.values(STATUS_BY_TOKEN).includes(status)) {
    throw storageValidationError('must be Draft, Approved or Disabled', 'status');
  }
  const line = `# Status: ${status}`;
  if (REWRITTEN_STATUS.test(source)) return source.replace(REWRITTEN_STATUS, () => line);
  if (REWRITTEN_SKILL.test(source))
    return source.replace(REWRITTEN_SKILL, (_whole, skill: string) => `${skill}\n${line}`);
  return `${line}\n${source}`;
}
