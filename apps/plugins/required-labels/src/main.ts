#!/usr/bin/env node
/**
 * required-labels process: `hookgate-required-labels --config required-labels.yaml --listen unix:///run/hookgate/required-labels.sock [--hook NAME]`
 * (the built dist/main.js; from source in the repository: `npm start -w <this package> -- <flags>`).
 * SIGTERM/SIGINT: stop accepting, finish in-flight calls, exit (the SDK's handleSignals).
 */
import { parseArgs } from 'node:util';
import { servePlugin } from '@hookgate/plugin-sdk';
import { loadRequiredLabelsConfig } from './config.js';
import { buildRequiredLabelsPlugin, DEFAULT_HOOK } from './plugin.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { config: { type: 'string' }, listen: { type: 'string' }, hook: { type: 'string' } },
  });
  if (!values.config || !values.listen) {
    throw new Error(
      'usage: required-labels --config <file.yaml> --listen <unix:///path.sock | host:port> [--hook <webhook name>]',
    );
  }
  const policy = await loadRequiredLabelsConfig(values.config);
  await servePlugin(buildRequiredLabelsPlugin({ policy, hook: values.hook ?? DEFAULT_HOOK }), {
    listen: values.listen,
    handleSignals: true,
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
