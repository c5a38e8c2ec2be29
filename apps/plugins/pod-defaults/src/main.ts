#!/usr/bin/env node
/**
 * pod-defaults process: `hookgate-pod-defaults --config pod-defaults.yaml --listen unix:///run/hookgate/pod-defaults.sock [--hook NAME]`
 * (the built dist/main.js; from source in the repository: `npm start -w <this package> -- <flags>`).
 * SIGTERM/SIGINT: stop accepting, finish in-flight calls, exit (the SDK's handleSignals).
 */
import { parseArgs } from 'node:util';
import { servePlugin } from '@hookgate/plugin-sdk';
import { loadPodDefaultsConfig } from './config.js';
import { buildPodDefaultsPlugin, DEFAULT_HOOK } from './plugin.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { config: { type: 'string' }, listen: { type: 'string' }, hook: { type: 'string' } },
  });
  if (!values.config || !values.listen) {
    throw new Error(
      'usage: pod-defaults --config <file.yaml> --listen <unix:///path.sock | host:port> [--hook <webhook name>]',
    );
  }
  const defaults = await loadPodDefaultsConfig(values.config);
  await servePlugin(buildPodDefaultsPlugin({ defaults, hook: values.hook ?? DEFAULT_HOOK }), {
    listen: values.listen,
    handleSignals: true,
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
