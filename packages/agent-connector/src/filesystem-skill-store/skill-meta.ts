import { contentIdentity } from '../storage/content-hash.js';
import type { SkillMeta, VersionInfo } from '../storage/skill-store.js';
import { statusOfSkill } from '../storage/status-header.js';
import type { SkillFile } from './skill-file.js';

/** Horizontal white space only, as in the status header: a header never spills onto the next line. */
const SPACE = '[^\\S\\n\\r\\u2028\\u2029]';
/** The first `# Description: <text>` line of a skill body. */
const DESCRIPTION_LINE = new RegExp(`^#${SPACE}*Description${SPACE}*:${SPACE}*(.+?)${SPACE}*$`, 'm');

/**
 * The author a version log records: the `changed_by` of the earliest entry that has one (the first
 * write's author; a later write names one only when the first could not). `undefined` when none does.
 */
export function authorOf(entries: readonly VersionInfo[]): string | undefined {
  return entries.find((entry) => entry.changed_by !== undefined)?.changed_by;
}

/**
 * Whether the log's last entry describes the file's current bytes, that is, the last change went
 * through the store. After an edit made outside the store (or with no log) it does not.
 */
export function logDescribesFile(entries: readonly VersionInfo[], contentHash: string): boolean {
  return entries.at(-1)?.content_hash === contentHash;
}

/** `changed_at` of the entry that set the current status: the latest entry whose status differs from the one before it. */
function statusChangedAt(entries: readonly VersionInfo[]): number | undefined {
  let changedAt: number | undefined;
  let previous: VersionInfo | undefined;
  for (const entry of entries) {
    if (previous === undefined || previous.status !== entry.status) changedAt = entry.changed_at;
    previous = entry;
  }
  return changedAt;
}

/**
 * A skill's `SkillMeta`, from its source file and its version log:
 * - `version`, `content_hash` and `status` from the bytes on disk (`status` per `statusOfSkill`);
 * - `created_at`: the first logged write, else the file's modification time;
 * - `updated_at` and `status_changed_at`: from the log while its last entry describes the current bytes;
 *   after an edit made outside the store, `updated_at` is the file's modification time and
 *   `status_changed_at` is left out (the store cannot know it);
 * - `author`: see {@link authorOf}; `description`: the body's first `# Description:` header.
 */
export function buildSkillMeta(name: string, file: SkillFile, entries: readonly VersionInfo[]): SkillMeta {
  const { content_hash, version } = contentIdentity(file.source);
  const current = logDescribesFile(entries, content_hash);
  const last = entries.at(-1);
  const meta: SkillMeta = {
    name,
    version,
    content_hash,
    status: statusOfSkill(file.source),
    created_at: entries[0]?.changed_at ?? file.modifiedAt,
    updated_at: current && last !== undefined ? last.changed_at : file.modifiedAt,
  };
  const statusSince = current ? statusChangedAt(entries) : undefined;
  if (statusSince !== undefined) meta.status_changed_at = statusSince;
  const author = authorOf(entries);
  if (author !== undefined) meta.author = author;
  const description = DESCRIPTION_LINE.exec(file.source)?.[1];
  if (description !== undefined) meta.description = description;
  return meta;
}
