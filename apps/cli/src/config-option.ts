/**
 * `--config` of every command: the flag, else $HOOKGATE_CONFIG, else /etc/hookgate (where the
 * static pod in deploy/static-pod.yaml mounts the configuration). Help shows which one applies.
 */
import { Option } from 'commander';
import type { CliContext } from './cli-command.js';

export const CONFIG_ENV = 'HOOKGATE_CONFIG';
export const DEFAULT_CONFIG_PATH = '/etc/hookgate';

/** The `--config <path>` option with its default from the environment, then the standard path. */
export function configOption(context: CliContext, what = 'a YAML file or a directory'): Option {
  const fromEnv = context.env[CONFIG_ENV];
  const fallback = fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEFAULT_CONFIG_PATH;
  return new Option('--config <path>', `${what} (env ${CONFIG_ENV}, else ${DEFAULT_CONFIG_PATH})`).default(
    fallback,
    fromEnv ? `$${CONFIG_ENV}: ${fromEnv}` : DEFAULT_CONFIG_PATH,
  );
}
