/**
 * The `hookgate` command: the only file of the CLI that reads argv and env. Each command lives in
 * commands/, returns an exit code, and is loaded only when run (serve workers start faster).
 */
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { isLogLevel } from '@hookgate/observability';

export async function main(argv: readonly string[]): Promise<number> {
  let exitCode = 0;
  const program = new Command('hookgate')
    .description('Admission-webhook gateway for Kubernetes: one localhost webhook, many gRPC plugin hooks.')
    .exitOverride()
    .showHelpAfterError();

  program
    .command('serve')
    .description('run the gateway (admission listener, metrics listener, one worker per core)')
    .requiredOption('--config <path>', 'GatewayConfiguration + webhook configurations: a YAML file or a directory')
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
      const envLevel = process.env['HOOKGATE_LOG_LEVEL'];
      const level = opts.logLevel ?? (isLogLevel(envLevel) ? envLevel : undefined);
      const { serveCommand } = await import('./commands/serve.js');
      exitCode = await serveCommand({ ...opts, ...(level ? { logLevel: level } : {}) });
    });

  program
    .command('check-config')
    .description('validate a configuration and print every problem (exit 1 when there is any)')
    .requiredOption('--config <path>', 'a YAML file or a directory')
    .action(async (opts: { config: string }) => {
      const { checkConfigCommand } = await import('./commands/check-config.js');
      exitCode = await checkConfigCommand(opts.config, process.stdout, process.stderr);
    });

  program
    .command('print-webhooks')
    .description('print the two apiserver-side webhook configurations that send every request to this gateway')
    .requiredOption('--config <path>', 'a YAML file or a directory')
    .option('--url-host <host>', 'host in the webhook URLs (default: the admission listener address)')
    .action(async (opts: { config: string; urlHost?: string }) => {
      const { printWebhooksCommand } = await import('./commands/print-webhooks.js');
      exitCode = await printWebhooksCommand(opts, process.stdout, process.stderr);
    });

  program
    .command('review')
    .description('dry-run an AdmissionReview or a manifest through the configured hooks and print the decision')
    .requiredOption('--config <path>', 'a YAML file or a directory')
    .argument('<file>', 'AdmissionReview (JSON or YAML) or a Kubernetes object manifest')
    .option('--operation <op>', 'for a manifest: CREATE, UPDATE, DELETE or CONNECT', 'CREATE')
    .option('--resource <plural>', 'for a manifest: the resource name when it is not the lower-case plural of the kind')
    .option('--namespace <ns>', 'for a manifest: the namespace when the manifest has none')
    .option('--user <name>', 'for a manifest: the requesting user', 'hookgate-review')
    .option('--dry-run', 'for a manifest: mark the request as dryRun')
    .option('--timeout <duration>', 'the apiserver timeout to simulate, e.g. 10s', '10s')
    .option('--output <format>', 'text or json', 'text')
    .action(async (file: string, opts: ReviewFlags) => {
      const { reviewCommand } = await import('./commands/review.js');
      exitCode = await reviewCommand(file, opts, process.stdout, process.stderr);
    });

  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    process.stderr.write(`hookgate: ${(error as Error).message}\n`);
    return 1;
  }
  return exitCode;
}

export interface ServeFlags {
  config: string;
  host?: string;
  port?: number;
  metricsPort?: number;
  insecureHttp?: boolean;
  stateDir?: string;
  workers?: number;
  logLevel?: import('@hookgate/observability').LogLevel;
}

export interface ReviewFlags {
  config: string;
  operation: string;
  resource?: string;
  namespace?: string;
  user: string;
  dryRun?: boolean;
  timeout: string;
  output: string;
}

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
