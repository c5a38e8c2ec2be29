/** `hookgate test` on the command line: description, flags and help text; runs ./test.js. */
import { Option } from 'commander';
import type { DefineCommand } from '../cli-command.js';
import { configOption } from '../config-option.js';
import type { TestFlags } from './test.js';

export const defineTest: DefineCommand = (program, context) => {
  program
    .command('test')
    .description(
      'run test suites: objects through the configured hooks, each compared with what it expects (allowed, denied with a message, each hook, the patched object)',
    )
    .argument('<suites...>', 'suite files (kind: TestSuite), or directories searched for hookgate-test.yaml')
    .addOption(configOption(context, 'the configuration, for suites that do not name one'))
    .addOption(
      new Option('-o, --output <format>', 'text, json or junit (JUnit XML)')
        .choices(['text', 'json', 'junit'])
        .default('text'),
    )
    .addHelpText(
      'after',
      `
A suite (docs/examples/policy-tests/hookgate-test.yaml):

  apiVersion: hookgate.dev/v1alpha1
  kind: TestSuite
  metadata: { name: built-in plugins }
  configuration: hookgate.yaml            # relative to the suite; else --config
  tests:
    - name: an unlabelled Deployment is denied
      object: objects/deployments.yaml#2  # or an object inline; oldObject: for UPDATE
      expect:
        allowed: false
        message: missing label "team"
        hooks: { required-labels.hookgate.dev: denied, pod-defaults.hookgate.dev: skipped }

Plugins are used or started as for \`hookgate review\`.
Exit status: 0 every case passed, 1 a case failed or could not run, 2 a suite or configuration is invalid.`,
    )
    .action(async (suites: string[], opts: TestFlags, command: { getOptionValueSource(key: string): string }) => {
      const { testCommand } = await import('./test.js');
      const explicitConfig = command.getOptionValueSource('config') === 'cli';
      context.exit(await testCommand(suites, { ...opts, explicitConfig }, context));
    });
};
