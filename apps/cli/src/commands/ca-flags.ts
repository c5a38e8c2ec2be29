/** `hookgate ca create|export|import|promote|drop-previous` on the command line; runs ./ca.js. */
import type { Command } from 'commander';
import type { DefineCommand } from '../cli-command.js';
import type { CaFlags } from './ca.js';

const stateDirOptions = (command: Command) =>
  command
    .option('--config <path>', 'the gateway configuration (its stateDir holds the CA)')
    .option('--state-dir <dir>', 'the state directory (instead of --config)');

export const defineCa: DefineCommand = (program, context) => {
  const ca = program
    .command('ca')
    .description(
      'one CA for every control-plane node: create it once, export it, import it on the other nodes; rotate it',
    );
  const run = async (action: Parameters<typeof import('./ca.js').caCommand>[0], opts: CaFlags, file?: string) => {
    const { caCommand } = await import('./ca.js');
    context.exit(await caCommand(action, opts, file, context.out, context.err));
  };
  stateDirOptions(ca.command('create').description('create the CA in the state directory (before the first start)'))
    .option('--next', 'create the next CA of a rotation (trusted in the caBundle, not serving yet)')
    .option('--force', 'replace an existing CA')
    .action((opts: CaFlags) => run('create', opts));
  stateDirOptions(
    ca.command('export').description('print the CA key and certificate (PEM) for `hookgate ca import` on another node'),
  )
    .option('--next', 'export the next CA of a rotation')
    .action((opts: CaFlags) => run('export', opts));
  stateDirOptions(ca.command('import').description('install a CA exported on another node (from FILE, or - for stdin)'))
    .argument('<file>', 'the output of `hookgate ca export`')
    .option('--next', 'import it as the next CA of a rotation')
    .option('--force', 'replace a different CA already there')
    .action((file: string, opts: CaFlags) => run('import', opts, file));
  stateDirOptions(
    ca
      .command('promote')
      .description('rotation: the next CA becomes the CA; the old one stays trusted until drop-previous'),
  ).action((opts: CaFlags) => run('promote', opts));
  stateDirOptions(
    ca.command('drop-previous').description('rotation: stop trusting the CA that promote replaced'),
  ).action((opts: CaFlags) => run('drop-previous', opts));
};
