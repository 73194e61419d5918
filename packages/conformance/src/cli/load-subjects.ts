import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConformanceError, isConformanceError } from '../errors.js';
import { type SubjectSuite, subjectSuites } from '../subjects/subject-suites.js';

/**
 * Imports the `--subjects` module and binds each implementation its default export describes (see
 * `ConformanceSubjects`) to its suite. `specifier` is a path (relative to `cwd`, absolute, or a
 * `file:` URL) or, when no such file exists, a package name resolved as from a module in `cwd`.
 *
 * @throws {ConformanceError} `cli_usage`: when the module cannot be found or imported, has no default export,
 *   or its default export does not have the documented shape (the message names the first problem).
 */
export async function loadSubjects(specifier: string, cwd: string = process.cwd()): Promise<SubjectSuite[]> {
  const url = moduleUrl(specifier, cwd);
  let exports: { readonly default?: unknown };
  try {
    exports = (await import(url)) as { readonly default?: unknown };
  } catch (error) {
    throw new ConformanceError('cli_usage', `cannot load --subjects ${specifier}: ${messageOf(error)}`, {
      cause: error,
    });
  }
  if (!('default' in exports)) {
    throw new ConformanceError(
      'cli_usage',
      `--subjects ${specifier} has no default export (export default { skillStores: [{ name, factory }], … })`,
    );
  }
  try {
    return subjectSuites(exports.default, `--subjects ${specifier}`);
  } catch (error) {
    if (!isConformanceError(error, 'invalid_subjects')) throw error;
    throw new ConformanceError('cli_usage', error.message, { cause: error });
  }
}

function moduleUrl(specifier: string, cwd: string): string {
  if (specifier.startsWith('file:')) return specifier;
  const path = resolve(cwd, specifier);
  const looksLikePath = isAbsolute(specifier) || specifier.startsWith('.');
  if (existsSync(path)) return pathToFileURL(path).href;
  if (looksLikePath)
    throw new ConformanceError('cli_usage', `--subjects ${specifier}: no such file (${path})`);
  try {
    return pathToFileURL(createRequire(join(cwd, 'noop.js')).resolve(specifier)).href;
  } catch (error) {
    throw new ConformanceError(
      'cli_usage',
      `--subjects ${specifier}: no such file, and no package of that name is reachable from ${cwd}`,
      { cause: error },
    );
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
