#!/usr/bin/env node
/**
 * immutable-fields process: `hookgate-immutable-fields --config immutable-fields.yaml --listen unix:///run/hookgate/immutable-fields.sock [--hook NAME]`
 * (the built dist/main.js; from source in the repository: `npm start -w <this package> -- <flags>`).
 * SIGTERM/SIGINT: stop accepting, finish in-flight calls, exit (the SDK's handleSignals).
 */
import { parseArgs } from 'node:util';
import { servePlugin } from '@hookgate/plugin-sdk';
import { loadImmutableFieldsConfig } from './config.js';
import { buildImmutableFieldsPlugin, DEFAULT_HOOK } from './plugin.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { config: { type: 'string' }, listen: { type: 'string' }, hook: { type: 'string' } },
  });
  if (!values.config || !values.listen) {
    throw new Error(
      'usage: immutable-fields --config <file.yaml> --listen <unix:///path.sock | host:port> [--hook <webhook name>]',
    );
  }
  const policy = await loadImmutableFieldsConfig(values.config);
  await servePlugin(buildImmutableFieldsPlugin({ policy, hook: values.hook ?? DEFAULT_HOOK }), {
    listen: values.listen,
    handleSignals: true,
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
