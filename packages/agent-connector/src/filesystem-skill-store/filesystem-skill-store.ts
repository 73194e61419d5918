import { mkdir, open, readdir, readFile, stat, unlink } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '@agentwire/internal/node';
import { KeyedSerialQueue } from '../internal/keyed-serial-queue.js';
import { type ManifestInfo, parseStorageValue, unixSeconds } from '../storage/conventions.js';
import { SkillNotFoundError, storageConflictError, storageValidationError } from '../storage/errors.js';
import {
  changeTokenFromLines,
  contentIdentity,
  type SkillFilter,
  type SkillMeta,
  type SkillMetaInput,
  type SkillSource,
  type SkillStatus,
  type SkillStore,
  type SkillStoreCapabilities,
  type SkillStoreManifest,
  skillFilterSchema,
  skillMetaInputSchema,
  skillStatusSchema,
  statusOfSkill,
  type VersionInfo,
  versionInfoSchema,
  withStatusHeader,
} from '../storage/skill-store.js';

const IMPLEMENTATION = 'FilesystemSkillStore';
/** The SkillStore contract version this store implements. */
const CONTRACT_VERSION = '1.0.0';

/** Options of {@link FilesystemSkillStore}. */
export interface FilesystemSkillStoreOptions {
  /** The skill folder; created on the first write. Relative paths are resolved against the working directory once. */
  readonly dir: string;
  /** Clock for `changed_at` (unix **milliseconds**; recorded as whole seconds); default `Date.now`. */
  readonly now?: () => number;
  /**
   * The author recorded when a skill's first write names none: default the OS user
   * (`os.userInfo().username`), or no author when that cannot be read; `null` records no default author.
   */
  readonly defaultAuthor?: string | null;
}

/**
 * A {@link SkillStore} over a folder of plain files (Node only): skill `<name>` is the file
 * `<dir>/<name>.skill.md`, its history the JSON-lines log `<dir>/<name>.versions.jsonl` (one
 * `VersionInfo` per write or status change, oldest first).
 *
 * - Names must match `SKILL_NAME_PATTERN`; `store()` refuses any other with
 *   a `storage_conflict` `AgentConnectorError`, the other methods answer `SkillNotFoundError` (the folder
 *   cannot hold it).
 * - The recorded status and the body always agree: a new skill takes `metadata.status`, else the body's
 *   `# Status:` header; an overwrite keeps the current status unless `metadata.status` is given (a body
 *   edit never changes the status on its own). The body's header is rewritten (`withStatusHeader`) when
 *   it says otherwise, and an Approved body is always normalised to the bare `# Status: Approved` (an
 *   approval token after it is dropped). Other bodies are stored byte for byte. `content_hash` and
 *   `version` are those of the bytes written (`contentIdentity`).
 * - The first write's author (`metadata.author`, else `defaultAuthor`) is locked: a later write naming a
 *   different author is refused with `storage_conflict`.
 * - Only the current bytes are kept: `load(name, version)` answers for the current version and throws
 *   `SkillNotFoundError` with code `version_not_found` for any other. `versions()` lists the log.
 * - Files are replaced atomically (temp file + rename); writes to one name are serialised within this
 *   instance. `delete()` erases both files and frees the name.
 * - Timestamps are unix seconds (`now` is a millisecond clock, recorded rounded down).
 * - `version()`, the change token, reads no body and moves on every change (see `version()`).
 *
 * @example
 * const store = new FilesystemSkillStore({ dir: './skills' });
 * const info = await store.store('triage', '# Skill: triage\n# Status: Draft\n\nmain:\n  ! hello\n');
 * await store.update_status('triage', 'Approved');
 * (await store.load('triage')).source; // '# Skill: triage\n# Status: Approved\n\nmain:\n  ! hello\n'
 */
export class FilesystemSkillStore implements SkillStore {
  /** What this class supports, readable without an instance. */
  static staticCapabilities(): SkillStoreCapabilities {
    return {
      connector_type: 'skill_store',
      implementation: IMPLEMENTATION,
      contract_version: CONTRACT_VERSION,
      features: {
        supports_writes: true,
        supports_versioning: true,
        supports_tag_filter: false,
        supports_audit_trail: true,
        supports_atomic_status_transitions: false,
      },
    };
  }

  /** The skill folder, absolute. */
  readonly dir: string;
  readonly #now: () => number;
  readonly #defaultAuthor: string | undefined;
  readonly #writes = new KeyedSerialQueue();

  /** @throws {AgentConnectorError} `storage_validation`: when `dir` is not a non-empty string or `now` is not a function. */
  constructor(options: FilesystemSkillStoreOptions) {
    const { dir, now = Date.now, defaultAuthor } = options ?? ({} as Partial<FilesystemSkillStoreOptions>);
    if (typeof dir !== 'string' || dir === '') {
      throw storageValidationError('must be a non-empty path', 'options.dir');
    }
    if (typeof now !== 'function') throw storageValidationError('must be a function', 'options.now');
    if (defaultAuthor !== undefined && defaultAuthor !== null && typeof defaultAuthor !== 'string') {
      throw storageValidationError('must be a string or null', 'options.defaultAuthor');
    }
    this.dir = resolve(dir);
    this.#now = now;
    this.#defaultAuthor = defaultAuthor === undefined ? osUserName() : (defaultAuthor ?? undefined);
  }

  async manifest(): Promise<ManifestInfo<SkillStoreManifest>> {
    return { capabilities_version: '1', manifest: { kind: 'filesystem', root_dir: this.dir } };
  }

  async load(name: string, version?: string): Promise<SkillSource> {
    if (version !== undefined && typeof version !== 'string') {
      throw storageValidationError('must be a string', 'version');
    }
    const { file, meta } = await this.#readExisting(name);
    if (version !== undefined && version !== meta.version) {
      throw new SkillNotFoundError(name, IMPLEMENTATION, { version });
    }
    return {
      name,
      version: meta.version,
      content_hash: meta.content_hash,
      source: file.source,
      metadata: meta,
    };
  }

  async metadata(name: string): Promise<SkillMeta> {
    return (await this.#readExisting(name)).meta;
  }

  async query(filter?: SkillFilter): Promise<SkillMeta[]> {
    const compiled = compileSkillFilter(filter);
    let fileNames: string[];
    try {
      fileNames = await readdir(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const metas: SkillMeta[] = [];
    for (const fileName of fileNames) {
      const name = skillNameOfFile(fileName);
      if (name === undefined || !acceptsName(compiled, name)) continue;
      const read = await this.#read(name);
      if (read !== undefined) metas.push(read.meta);
    }
    return selectSkills(compiled, metas);
  }

  async versions(name: string): Promise<VersionInfo[]> {
    const { file, meta, entries } = await this.#readExisting(name);
    if (logDescribesFile(entries, meta.content_hash)) return [...entries];
    // No log, or the file was edited outside the store: the current bytes are a version of their own.
    const current: VersionInfo = {
      name,
      version: meta.version,
      content_hash: meta.content_hash,
      status: meta.status,
      changed_at: file.modifiedAt,
    };
    return [...entries, current];
  }

  async store(name: string, source: string, metadata?: SkillMetaInput): Promise<VersionInfo> {
    assertNameIsString(name);
    if (!isStorableSkillName(name)) {
      throw storageConflictError(
        name,
        // The reference store's reason, word for word.
        'name contains characters unsafe for filesystem path',
        IMPLEMENTATION,
      );
    }
    if (typeof source !== 'string') throw storageValidationError('must be a string', 'source');
    const input = parseStorageValue(skillMetaInputSchema, metadata ?? {}, 'metadata');
    return this.#writes.run(name, async () => {
      await mkdir(this.dir, { recursive: true });
      const paths = skillPaths(this.dir, name);
      const existing = await readSkillFile(paths.source);
      // A log without its skill file is a leftover: a new skill starts a clean history.
      const log = existing === undefined ? EMPTY_VERSION_LOG : await readVersionLog(paths.log);
      const lockedAuthor = authorOf(log.entries);
      if (lockedAuthor !== undefined && input.author !== undefined && input.author !== lockedAuthor) {
        throw storageConflictError(
          name,
          `the author is locked by the first write ('${lockedAuthor}'), the write names '${input.author}'`,
          IMPLEMENTATION,
        );
      }
      const author = lockedAuthor ?? input.author ?? this.#defaultAuthor;
      const previousStatus = existing === undefined ? undefined : statusOfSkill(existing.source);
      const status = input.status ?? previousStatus ?? statusOfSkill(source);
      const body = bodyWithStatus(source, status);
      await writeFileAtomic(paths.source, body);
      const entry: VersionInfo = {
        ...logEntryIdentity(name, body),
        status,
        ...(previousStatus === undefined ? {} : { previous_status: previousStatus }),
        changed_at: this.#nowSeconds(),
        ...(author === undefined ? {} : { changed_by: author }),
      };
      await appendVersionEntry(paths.log, log, entry);
      return entry;
    });
  }

  async update_status(name: string, status: SkillStatus): Promise<VersionInfo> {
    assertNameIsString(name);
    const next = parseStorageValue(skillStatusSchema, status, 'status');
    if (!isStorableSkillName(name)) throw new SkillNotFoundError(name, IMPLEMENTATION);
    return this.#writes.run(name, async () => {
      const paths = skillPaths(this.dir, name);
      const existing = await readSkillFile(paths.source);
      if (existing === undefined) throw new SkillNotFoundError(name, IMPLEMENTATION);
      const log = await readVersionLog(paths.log);
      const body = withStatusHeader(existing.source, next);
      await writeFileAtomic(paths.source, body);
      const entry: VersionInfo = {
        ...logEntryIdentity(name, body),
        status: next,
        previous_status: statusOfSkill(existing.source),
        changed_at: this.#nowSeconds(),
      };
      await appendVersionEntry(paths.log, log, entry);
      return entry;
    });
  }

  async delete(name: string): Promise<void> {
    assertNameIsString(name);
    if (!isStorableSkillName(name)) throw new SkillNotFoundError(name, IMPLEMENTATION);
    await this.#writes.run(name, async () => {
      const paths = skillPaths(this.dir, name);
      const existed = await skillFileExists(paths.source);
      // The log goes first: if the process stops in between, the skill is still whole (without history)
      // rather than a name whose next write would inherit an old author and history.
      await unlinkIfPresent(paths.log);
      if (!existed) throw new SkillNotFoundError(name, IMPLEMENTATION);
      await unlinkIfPresent(paths.source);
    });
  }

  /**
   * A change token over the whole folder (16 hex digits), computed without reading any skill body. Each
   * skill contributes its name, its source file's size, modification and change times (ns) and inode,
   * and the raw last line of its version log. Every change made through the store moves it — the log's
   * new last entry carries the new content version and status, so two edits within one clock tick still
   * differ — and an edit made outside the store moves it through the file's size, times and inode. A
   * missing or empty folder gives `EMPTY_CATALOG_CHANGE_TOKEN`.
   */
  async version(): Promise<string> {
    return folderChangeToken(this.dir);
  }

  #nowSeconds(): number {
    return unixSeconds(this.#now());
  }

  async #read(name: string) {
    const paths = skillPaths(this.dir, name);
    const file = await readSkillFile(paths.source);
    if (file === undefined) return undefined;
    const { entries } = await readVersionLog(paths.log);
    return { file, entries, meta: buildSkillMeta(name, file, entries) };
  }

  async #readExisting(
    name: string,
  ): Promise<{ file: SkillFile; entries: readonly VersionInfo[]; meta: SkillMeta }> {
    assertNameIsString(name);
    const read = isStorableSkillName(name) ? await this.#read(name) : undefined;
    if (read === undefined) throw new SkillNotFoundError(name, IMPLEMENTATION);
    return read;
  }
}

/**
 * The bytes to persist for a body recorded with `status`: Approved bodies get the bare
 * `# Status: Approved` header; a body whose header names another status than the recorded one gets a
 * header naming it; any other body is kept as given (a missing header reads as Draft).
 */
function bodyWithStatus(source: string, status: SkillStatus): string {
  if (status === 'Approved' || statusOfSkill(source) !== status) return withStatusHeader(source, status);
  return source;
}

/**
 * The leading fields of a log entry for the bytes written, in the reference store's key order
 * (`name`, `version`, `content_hash`), so `<name>.versions.jsonl` lines come out byte for byte as theirs.
 */
function logEntryIdentity(
  name: string,
  body: string,
): Pick<VersionInfo, 'name' | 'version' | 'content_hash'> {
  const { version, content_hash } = contentIdentity(body);
  return { name, version, content_hash };
}

async function unlinkIfPresent(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

function osUserName(): string | undefined {
  try {
    const { username } = userInfo();
    return username === '' ? undefined : username;
  } catch {
    return undefined;
  }
}

/**
 * The skill names a {@link FilesystemSkillStore} can hold: an ASCII letter or digit, then ASCII letters,
 * digits, `_`, `-` or `.` — safe as a file name on every platform, never a path, never hidden.
 */
export const SKILL_NAME_PATTERN = /^[A-Za-z0-9][\w\-.]*$/;

/** Suffix of a skill's source file: `<dir>/<name>.skill.md`. */
export const SKILL_FILE_SUFFIX = '.skill.md';
/** Suffix of a skill's version log: `<dir>/<name>.versions.jsonl`. */
export const VERSION_LOG_SUFFIX = '.versions.jsonl';

/** Whether `name` matches `SKILL_NAME_PATTERN`. */
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

/** A skill's source file as read: its text and when it was last written. */
export interface SkillFile {
  /** The file's bytes, decoded as UTF-8. */
  readonly source: string;
  /** The file's modification time, in whole unix seconds. */
  readonly modifiedAt: number;
}

/**
 * Reads a skill's source file together with its modification time (one open file, so both describe the
 * same bytes). `undefined` when there is no such file, or something other than a file (a folder) has
 * its name.
 *
 * @throws {NodeJS.ErrnoException} for any other file-system fault (permissions, I/O).
 */
export async function readSkillFile(path: string): Promise<SkillFile | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return undefined;
    const source = await handle.readFile('utf8');
    return { source, modifiedAt: unixSeconds(stats.mtimeMs) };
  } finally {
    await handle.close();
  }
}

/** Whether a skill's source file exists (as a file), without reading it. */
export async function skillFileExists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

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

/**
 * A skill's version log (`<name>.versions.jsonl`) as read: one JSON `VersionInfo` per line, oldest
 * first.
 */
export interface VersionLog {
  /** The lines that parse as a `VersionInfo`, in file order; torn or foreign lines are left out. */
  readonly entries: readonly VersionInfo[];
  /**
   * The file's complete lines (each ending in `\n`), kept verbatim for the next append. A torn last line
   * — one without its newline, left by a writer that stopped mid-append — is not part of it.
   */
  readonly completeText: string;
}

/** The log of a skill without history: what a new skill's log starts from. */
export const EMPTY_VERSION_LOG: VersionLog = Object.freeze({ entries: Object.freeze([]), completeText: '' });

/** Reads a version log; a missing file is an empty log. */
export async function readVersionLog(path: string): Promise<VersionLog> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY_VERSION_LOG;
    throw error;
  }
  const completeText = text.slice(0, text.lastIndexOf('\n') + 1);
  const entries: VersionInfo[] = [];
  for (const line of text.split('\n')) {
    const entry = parseEntry(line);
    if (entry !== undefined) entries.push(entry);
  }
  return { entries, completeText };
}

function parseEntry(line: string): VersionInfo | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = versionInfoSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Writes `log`'s complete lines plus `entry` as a new last line, replacing the file atomically (so the
 * log is never torn by this writer). Pass an empty log to start a fresh history.
 */
export async function appendVersionEntry(path: string, log: VersionLog, entry: VersionInfo): Promise<void> {
  await writeFileAtomic(path, `${log.completeText}${JSON.stringify(entry)}\n`);
}

const TAIL_CHUNK_BYTES = 4096;
const NEWLINE = 0x0a;

/**
 * The last non-empty line of a log file, read from the end in small chunks — the cost does not grow with
 * the history. `undefined` when the file is missing or holds no line.
 */
export async function readLastLogLine(path: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    let tail = Buffer.alloc(0);
    let position = size;
    while (position > 0) {
      const length = Math.min(TAIL_CHUNK_BYTES, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      const { bytesRead } = await handle.read(chunk, 0, length, position);
      tail = Buffer.concat([chunk.subarray(0, bytesRead), tail]);
      let end = tail.length;
      while (end > 0 && tail[end - 1] === NEWLINE) end -= 1;
      if (end === 0) continue;
      const start = tail.lastIndexOf(NEWLINE, end - 1);
      if (start >= 0 || position === 0) return tail.subarray(start + 1, end).toString('utf8');
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

/**
 * The change token of a skill folder, computed without reading any skill body. Each skill contributes
 * one line: its name; the size, modification and status-change times (nanoseconds) and inode of its
 * source file; and the raw last line of its version log. Lines are ordered by name and digested by
 * `changeTokenFromLines` (16 hex digits).
 *
 * - Every change made through the store moves it exactly: a write or status change appends a log entry
 *   carrying the new content version and status, and replaces the source file (a new inode); a removal
 *   drops the line. Two writes within one clock tick still differ by their versions.
 * - An edit made outside the store is seen through the source file's size, times and inode.
 * - A missing or empty folder gives `EMPTY_CATALOG_CHANGE_TOKEN`, the token of an empty catalog.
 *
 * The reference store hashes `<file>:<floor(mtimeMs)>` lines instead, which misses a second edit within
 * the same millisecond, and returns `'empty'` for a missing folder.
 */
export async function folderChangeToken(dir: string): Promise<string> {
  let fileNames: string[];
  try {
    fileNames = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return changeTokenFromLines([]);
    throw error;
  }
  const names = fileNames
    .map(skillNameOfFile)
    .filter((name) => name !== undefined)
    .sort(compareNames);
  const lines: string[] = [];
  for (const name of names) {
    const paths = skillPaths(dir, name);
    const source = await stat(paths.source, { bigint: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (source === undefined || !source.isFile()) continue;
    const lastEntry = (await readLastLogLine(paths.log)) ?? '';
    lines.push([name, source.size, source.mtimeNs, source.ctimeNs, source.ino, lastEntry].join('\t'));
  }
  return changeTokenFromLines(lines);
}
