import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SkillStore } from '@agentwire/agent-connector';
import { FilesystemSkillStore } from '@agentwire/agent-connector/filesystem-skill-store';
import type { SkillStoreUnderTest } from './skill-store-suite.js';

/**
 * A `SkillStoreFactory` whose every store lives in a fresh temporary folder, removed on dispose.
 * Node-only: not exported from the package entry.
 */
export function temporaryFolderStores(
  build: (dir: string) => SkillStore,
): () => Promise<SkillStoreUnderTest> {
  return async (): Promise<SkillStoreUnderTest> => {
    const dir = await mkdtemp(join(tmpdir(), 'agentwire-skill-store-'));
    return { store: build(dir), dispose: () => rm(dir, { recursive: true, force: true }) };
  };
}

/** The bundled `FilesystemSkillStore`, one temporary folder per store. Node-only. */
export const filesystemSkillStoreUnderTest: () => Promise<SkillStoreUnderTest> = temporaryFolderStores(
  (dir) => new FilesystemSkillStore({ dir }),
);
