/** `hookgate review` on the command line: description, flags and help text; runs ./review.js. */
import { Option } from 'commander';
import type { DefineCommand } from '../cli-command.js';
import { configOption } from '../config-option.js';
import type { ReviewFlags } from './review.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

export const defineReview: DefineCommand = (program, context) => {
  program
    .command('review')
    .description(
      'dry-run objects or AdmissionReviews through the configured hooks: the decision, every hook and why it ran or was skipped, the patched object and a diff',
    )
    .addOption(configOption(context))
    .argument('[files...]', 'AdmissionReviews or object manifests (JSON or YAML, any number of documents); - is stdin')
    .option('-f, --filename <path>', 'a file, a directory of *.yaml/*.yml/*.json, or - for stdin (repeatable)', collect)
    .option('--old <file>', 'for UPDATE: the object as stored (oldObject); implies --operation UPDATE')
    .addOption(
      new Option(
        '--operation <op>',
        'for a manifest: CREATE, UPDATE, DELETE or CONNECT (default: CREATE, UPDATE with --old)',
      ),
    )
    .option('--resource <plural>', 'for a manifest: the resource name when it is not the lower-case plural of the kind')
    .option('--namespace <ns>', 'for a manifest: the namespace when the manifest has none (default: default)')
    .option(
      '--cluster-scoped',
      'for a manifest: its kind is cluster-scoped (custom resources; built-in kinds are known)',
    )
    .option('--user <name>', 'for a manifest: the requesting user', 'hookgate-review')
    .option('--dry-run', 'for a manifest: mark the request as dryRun')
    .option('--timeout <duration>', 'the apiserver timeout to simulate, e.g. 10s', '10s')
    .addOption(
      new Option('-o, --output <format>', 'text (with a diff), or json/yaml (the report with the patched object)')
        .choices(['text', 'json', 'yaml'])
        .default('text'),
    )
    .addHelpText(
      'after',
      `
Plugins: one that answers at its configured target is used; otherwise, when its entry in the
GatewayConfiguration has a command, it is started for the review and stopped afterwards.

Exit status: 0 every object allowed, 2 any denied, 1 bad input or configuration.

Examples:
  hookgate review --config gateway.yaml pod.yaml
  kubectl get deploy web -o yaml | hookgate review --config gateway.yaml -f - -o yaml
  hookgate review --config gateway.yaml --old stored.yaml edited.yaml`,
    )
    .action(async (files: string[], opts: ReviewFlags) => {
      const { reviewCommand } = await import('./review.js');
      context.exit(await reviewCommand([...files, ...(opts.filename ?? [])], opts, context));
    });
};
