// Prints the closing line of a vitest JSON report as "Tests: N passed, N failed, N skipped" so that
// any CI log reader sees the totals; exits non-zero when the report is missing or shows failures.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'node_modules/.cache/vitest-report.json';
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch (err) {
  console.error(`test summary: cannot read ${file}: ${err.message}`);
  process.exit(1);
}
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failed > 0 || passed === 0 || report.success === false) process.exit(1);
