/** `hookgate review` on the command line: description, flags and help text; runs ./review.js. */
import type { DefineCommand } from '../cli-command.js';
import type { ReviewFlags } from './review.js';

export const defineReview: DefineCommand = (program, context) => {
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
      const { reviewCommand } = await import('./review.js');
      context.exit(await reviewCommand(file, opts, context.out, context.err));
    });
};
