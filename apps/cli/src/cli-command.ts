/** The contract between main.ts, which dispatches, and each command, which owns its flags. */
import type { Command } from 'commander';

/** What main.ts hands every command: the process's environment, input and output streams. */
export interface CliContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Read by `-f -` (review, test). */
  readonly in: NodeJS.ReadableStream;
  readonly out: NodeJS.WritableStream;
  readonly err: NodeJS.WritableStream;
  /** Records the exit code `hookgate` returns once the command's action is done. */
  exit(code: number): void;
}

/**
 * Adds one subcommand to `program` with its own description, flags and help text. Its action loads
 * the command's implementation only when run, so a `hookgate serve` worker loads no other command.
 */
export type DefineCommand = (program: Command, context: CliContext) => void;
