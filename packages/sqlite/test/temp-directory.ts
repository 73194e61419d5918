import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder under the OS temp dir, and how to remove it with everything in it. */
export interface TempDirectory {
  readonly path: string;
  /** A path inside the folder. */
  file(name: string): string;
  remove(): void;
}

/** Creates a temp folder for database files; call `remove()` in `afterEach`. */
export function createTempDirectory(prefix = 'agentwire-sqlite-'): TempDirectory {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    file: (name) => join(path, name),
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}
