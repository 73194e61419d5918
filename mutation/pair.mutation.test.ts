// The one test file of `pnpm mutation`: it runs the conformance suite of the pair named by
// AGENTWIRE_MUTATION_PAIR against that pair's implementation, one test per case, through the same
// rows `agentwire-conformance` runs (the bundled rows, and the repository's `--subjects` module for
// the SQLite stores). Stryker runs it once per mutant; a case that fails kills the mutant.
import { afterAll, describe, it } from 'vitest';
import repositorySubjects from '../conformance.subjects.mjs';
import { bundledSuites, type RunEntry, startRun } from '../packages/conformance/src/cli/bundled-suites.js';
import { subjectSuites } from '../packages/conformance/src/subjects/subject-suites.js';
import { registerSuite } from '../packages/conformance/src/vitest/index.js';
import { PAIRS } from './pairs.mjs';

const id = process.env['AGENTWIRE_MUTATION_PAIR'];
const pair = PAIRS.find((candidate) => candidate.id === id);
if (pair === undefined) throw new Error(`AGENTWIRE_MUTATION_PAIR names no pair: ${String(id)}`);

const wanted = [{ suite: pair.suite, subject: pair.subject }, ...(pair.also ?? [])];
const entries: RunEntry[] = [...bundledSuites(), ...subjectSuites(repositorySubjects)];
// Live subjects (a relay connector, a HearthNet node on 127.0.0.1) start once for the file.
const run = await startRun(
  entries.filter((entry) => 'subject' in entry && wanted.some(({ subject }) => entry.subject === subject)),
);
afterAll(async () => {
  await run.stop();
});
for (const { suite, subject } of wanted) {
  const row = run.rows.find(
    (candidate) => 'suite' in candidate && candidate.suite.name === suite && candidate.subject === subject,
  );
  if (row === undefined || !('suite' in row)) {
    throw new Error(`no run of ${suite} on ${subject}: pairs.mjs and the bundled rows disagree`);
  }
  // One describe per subject: the same suite may run on two subjects, and Stryker tells tests by name.
  describe(subject, () => registerSuite(row.suite, { describe, it, afterAll }));
}
