#!/usr/bin/env node
// The `agentwire-conformance` command: runs the suites against the bundled implementations.
import { runCli } from './cli/run-cli.js';

process.exitCode = await runCli(process.argv.slice(2));
