// The one test file of `pnpm mutation`: it runs the conformance suite of the pair named by
// AGENTWIRE_MUTATION_PAIR against that pair's implementation, one test per case, through the same
// rows `agentwire-conformance` runs (the bundled rows, and the repository's `--subjects` module for
// the SQLite stores). Stryker runs it once per mutant; a case that fails kills the mutant.
import { afterAll, beforeEach, describe, inject, it } from 'vitest';
import { PAIRS } from './pairs.mjs';

const id = process.env['AGENTWIRE_MUTATION_PAIR'];
const pair = PAIRS.find((candidate) => candidate.id === id);
if (pair === undefined) throw new Error(`AGENTWIRE_MUTATION_PAIR names no pair: ${String(id)}`);

const wanted = [{ suite: pair.suite, subject: pair.subject }, ...(pair.also ?? [])];

if (pair.coverage === 'all') {
  // Stryker's vitest runner records which case reached each mutant whatever `coverageAnalysis` says, and
  // activates a mutant reached inside cases only when those cases start: work the implementation cached
  // before then (while loading, or in an earlier case) was done by the original code, and a mutant of
  // it would run against the cases that reached it first alone. Recording every hit outside any case
  // makes each mutant of this pair "static" to Stryker: it is active before the modules load, and every
  // case runs against it. (This hook runs after the runner's own, which names the current case.)
  const namespace = inject('globalNamespace' as never) as unknown as string;
  beforeEach(() => {
    const strykerState = (globalThis as Record<string, { currentTestId?: string | undefined } | undefined>)[
      namespace
    ];
    if (strykerState !== undefined) strykerState.currentTestId = undefined;
  });
}

const expectedSkips: ReadonlySet<string> = new Set(pair.skips ?? []);

/**
 * vitest's `it`, for registerSuite, except that a case skipped (or left unobserved) counts as failed unless
 * the bundled run skips it too (pairs.mjs `skips`): a mutant that makes the implementation declare less
 * (a feature, a filter, a mode) turns cases into SKIP lines, and the report says so; the run of the
 * original has none of them.
 */
function strictIt(name: string, body: (context: { skip(note?: string): void }) => Promise<void>): void {
  const caseId = name.slice(0, name.indexOf(': '));
  it(name, (context) =>
    body({
      skip(note) {
        if (!expectedSkips.has(caseId)) {
          throw new Error(`skipped ${caseId}, which the implementation runs unmutated: ${String(note)}`);
        }
        context.skip(note);
      },
    }),
  );
}

/**
 * The pair's rows, started. Loaded here, not imported at the top: a mutant that breaks the
 * implementation while its modules load (a table built at import time) must fail a test, and an error
 * before any test is registered is no failed test to vitest, so Stryker would count it a survivor.
 */
async function startPairRun() {
  const [{ default: repositorySubjects }, { bundledSuites, startRun }, { subjectSuites }] = await Promise.all(
    [
      import('../conformance.subjects.mjs'),
      import('../packages/conformance/src/cli/bundled-suites.js'),
      import('../packages/conformance/src/subjects/subject-suites.js'),
    ],
  );
  const entries = [...bundledSuites(), ...subjectSuites(repositorySubjects)];
  // Live subjects (a relay connector, a HearthNet node on 127.0.0.1) start once for the file.
  return startRun(
    entries.filter((entry) => 'subject' in entry && wanted.some(({ subject }) => entry.subject === subject)),
  );
}

const started = await startPairRun().then(
  (run) => ({ run }),
  (error: unknown) => ({ error }),
);
if ('error' in started) {
  it('loads and starts the implementation', () => {
    throw started.error;
  });
} else {
  const { run } = started;
  const { registerSuite } = await import('../packages/conformance/src/vitest/index.js');
  afterAll(async () => {
    await run.stop();
  });
  for (const { suite, subject } of wanted) {
    const row = run.rows.find(
      (candidate) => 'suite' in candidate && candidate.suite.name === suite && candidate.subject === subject,
    );
    if (row === undefined || !('suite' in row)) {
      // A failed test, not a throw while the file loads (vitest counts no test as failed then, and Stryker
      // would score the mutant a survivor): a mutant that renames the subject (a backend's name) lands here.
      it(`runs ${suite} on ${subject}`, () => {
        throw new Error(`no run of ${suite} on ${subject}: the bundled rows have no such subject`);
      });
      continue;
    }
    // The suite's setup runs here, while the file loads, not lazily in its first case: what only the setup
    // reads (a connector's declared features) is then covered statically, so Stryker runs every case
    // against such a mutant instead of crediting it to the first case alone. A setup that fails still
    // fails every case, as it would in registerSuite.
    const setup = await Promise.resolve()
      .then(() => row.suite.setup())
      .then(
        (ready) => () => ready,
        (error: unknown) => () => Promise.reject(error),
      );
    // One describe per subject: the same suite may run on two subjects, and Stryker tells tests by name.
    describe(subject, () => registerSuite({ ...row.suite, setup }, { describe, it: strictIt, afterAll }));
  }
}
