/** `hookgate test` on the command line: description, flags and help text; runs ./test.js. */
import type { DefineCommand } from '../cli-command.js';

export const defineTest: DefineCommand = () => undefined;
