import { mkdir, readdir, unlink } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { KeyedSerialQueue } from '../internal/keyed-serial-queue.js';
import { contentIdentity } from '../storage/content-hash.js';
import { SkillNotFoundError, storageConflictError, storageValidationError } from '../storage/errors.js';
import { parseStorageValue } from '../storage/parse-storage-value.js';
import {
  type SkillFilter,
  type SkillMeta,
  type SkillMetaInput,
  type SkillSource,
  type SkillStatus,
  type SkillStore,
  type SkillStoreCapabilities,
  type SkillStoreManifest,
  skillMetaInputSchema,
  skillStatusSchema,
  type VersionInfo,
} from '../storage/skill-store.js';
import { statusOfSkill, withStatusHeader } from '../storage/status-header.js';
import type { ManifestInfo } from '../storage/store-manifest.js';
import { unixSeconds } from '../storage/unix-seconds.js';
import { writeFileAtomic } from './atomic-write.js';
import { folderChangeToken } from './change-token.js';
import { readSkillFile, type SkillFile, skillFileExists } from './skill-file.js';
import { acceptsName, compileSkillFilter, selectSkills } from './skill-filter.js';
import { authorOf, buildSkillMeta, logDescribesFile } from './skill-meta.js';
import {
  assertNameIsString,
  isStorableSkillName,
  SKILL_NAME_PATTERN,
  skillNameOfFile,
  skillPaths,
} from './skill-name.js';
import { appendVersionEntry, EMPTY_VERSION_LOG, readVersionLog } from './version-log.js';

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
 * - Names must match {@link SKILL_NAME_PATTERN}; `store()` refuses any other with
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
