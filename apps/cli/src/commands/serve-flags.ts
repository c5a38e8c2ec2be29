/** `hookgate serve` on the command line: description, flags and help text; runs ./serve.js. */
import { InvalidArgumentError } from 'commander';
import { isLogLevel } from '@hookgate/observability';
import type { DefineCommand } from '../cli-command.js';
import { configOption } from '../config-option.js';
import type { ServeFlags } from './serve.js';

export const defineServe: DefineCommand = (program, context) => {
  program
    .command('serve')
    .description('run the gateway (admission listener, metrics listener, one worker per core)')
    .addOption(configOption(context, 'GatewayConfiguration + webhook configurations: a YAML file or a directory'))
    .option('--host <host>', 'admission listener address (overrides admission.host)')
    .option('--port <port>', 'admission listener port, 0 for any free port (overrides admission.port)', port)
    .option('--metrics-port <port>', 'metrics/health listener port (overrides metrics.port)', port)
    .option('--insecure-http', 'serve admission over plain http (tests and local use only: the apiserver needs https)')
    .option('--state-dir <dir>', 'where the self-managed certificate lives (overrides stateDir)')
    .option('--workers <n>', 'gateway worker processes (overrides workers)', positiveInt)
    .option(
      '--log-level <level>',
      'fatal, error, warn, info, debug, trace or silent (overrides logLevel; env HOOKGATE_LOG_LEVEL)',
      logLevel,
    )
    .action(async (opts: ServeFlags) => {
      const envLevel = context.env['HOOKGATE_LOG_LEVEL'];
      const level = opts.logLevel ?? (isLogLevel(envLevel) ? envLevel : undefined);
      const { serveCommand } = await import('./serve.js');
      context.exit(await serveCommand({ ...opts, ...(level ? { logLevel: level } : {}) }));
    });
};

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('a port is an integer from 0 to 65535.');
  return n;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer.');
  return n;
}

function logLevel(value: string) {
  if (!isLogLevel(value)) throw new InvalidArgumentError('expected fatal, error, warn, info, debug, trace or silent.');
  return value;
}
