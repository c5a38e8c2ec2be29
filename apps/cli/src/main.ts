/**
 * The `hookgate` command: the only file of the CLI that reads argv and env, and it only dispatches.
 * Each command owns its flags and help text (commands/*-flags.ts) and loads its implementation
 * only when run (serve workers start faster).
 */
import { Command, CommanderError } from 'commander';
import type { CliContext, DefineCommand } from './cli-command.js';
import { defineServe } from './commands/serve-flags.js';
import { defineCheckConfig } from './commands/check-config-flags.js';
import { definePrintWebhooks } from './commands/print-webhooks-flags.js';
import { defineReview } from './commands/review-flags.js';
import { defineCa } from './commands/ca-flags.js';
import { defineBreakGlass } from './commands/break-glass-flags.js';
import { defineTest } from './commands/test-flags.js';
import { CLI_VERSION } from './version.js';
import { defineQueue } from './commands/queue-flags.js';

/** In the order `hookgate --help` lists them. */
const COMMANDS: readonly DefineCommand[] = [
  defineServe,
  defineCheckConfig,
  definePrintWebhooks,
  defineReview,
  defineCa,
  defineBreakGlass,
  defineTest,
  defineQueue,
];

export async function main(argv: readonly string[]): Promise<number> {
  let exitCode = 0;
  const program = new Command('hookgate')
    .description('Admission-webhook gateway for Kubernetes: one localhost webhook, many gRPC plugin hooks.')
    .version(`hookgate ${CLI_VERSION}`, '-V, --version', 'print the version and exit')
    .exitOverride()
    .showHelpAfterError();
  const context: CliContext = {
    env: process.env,
    in: process.stdin,
    out: process.stdout,
    err: process.stderr,
    exit: (code) => {
      exitCode = code;
    },
  };
  for (const define of COMMANDS) define(program, context);

  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    process.stderr.write(`hookgate: ${(error as Error).message}\n`);
    return 1;
  }
  return exitCode;
}
