#!/usr/bin/env node
/** Entry point: exit 0 ok, 1 failure, 2 usage error; errors are one clear line on stderr. */
import { CommanderError } from 'commander';
import { ConfigError, errorMessage } from '@webhook-gateway/core';
import { createProgram } from './program.js';

function fail(error: unknown): never {
  if (error instanceof CommanderError) {
    // commander has already printed its message
    process.exit(error.exitCode === 0 ? 0 : 2);
  }
  if (error instanceof ConfigError) {
    for (const problem of error.problems)
      process.stderr.write(`invalid config: ${problem.path}: ${problem.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`${errorMessage(error).split('\n').join('\n')}\n`);
  process.exit(1);
}

createProgram(process.argv[2])
  .then((program) => program.parseAsync(process.argv))
  .catch(fail);
