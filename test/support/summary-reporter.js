// CI reads a plain closing line, not jest's summary: write the counts to a file that
// scripts/test.sh adds up across tiers and prints as "N passed, N failed, N skipped".
const fs = require('node:fs');
const path = require('node:path');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.H_TEST_SUMMARY_FILE;
    const line = {
      passed: results.numPassedTests,
      failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
      skipped: results.numPendingTests + results.numTodoTests,
    };
    if (file) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.appendFileSync(file, JSON.stringify(line) + '\n');
    }
  }
}
module.exports = SummaryReporter;
