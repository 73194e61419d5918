import { cp, readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConformanceError } from '../errors.js';

/** One fixture file: its path under `fixtures/`, its case count and its description. */
export interface FixtureSummary {
  readonly path: string;
  readonly cases: number;
  readonly description: string;
}

const PACKAGE_NAME = '@agentwire/conformance';

/**
 * The `fixtures/` folder of this package, found from this module's location (the sources in a checkout,
 * `dist/` once built and installed).
 */
export async function fixturesDirectory(from: string = fileURLToPath(import.meta.url)): Promise<string> {
  let directory = dirname(from);
  for (;;) {
    try {
      const manifest = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as {
        name?: unknown;
      };
      if (manifest.name === PACKAGE_NAME) return join(directory, 'fixtures');
    } catch {
      // No package.json here: look one folder up.
    }
    const parent = dirname(directory);
    if (parent === directory)
      throw new ConformanceError(
        'fixtures_not_found',
        `cannot find the ${PACKAGE_NAME} package above ${from}`,
      );
    directory = parent;
  }
}

/**
 * Every `*.json` fixture file under `root`, sorted by path, with its case count and description. Only
 * the outer shape is read (`description`, `cases`), so one file with odd case ids does not hide the rest.
 */
export async function listFixtureFiles(root: string): Promise<FixtureSummary[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
  const summaries: FixtureSummary[] = [];
  for (const path of files) {
    const { description, cases } = JSON.parse(await readFile(join(root, path), 'utf8')) as {
      readonly description?: unknown;
      readonly cases?: unknown;
    };
    summaries.push({
      path,
      cases: Array.isArray(cases) ? cases.length : 0,
      description: typeof description === 'string' ? description : '',
    });
  }
  return summaries;
}

/** Copies the whole fixture tree (files, README, generator tools) into `target`; returns how many files. */
export async function exportFixtures(root: string, target: string): Promise<number> {
  await cp(root, target, { recursive: true, force: true });
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).length;
}
