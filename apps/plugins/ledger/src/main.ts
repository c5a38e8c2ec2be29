#!/usr/bin/env node
/**
 * ledger process: `hookgate-ledger --config ledger.yaml --listen unix:///run/hookgate/ledger.sock [--hook NAME]`
 * (the built dist/main.js; from source in the repository: `npm start -w <this package> -- <flags>`).
 * Redis from REDIS_URL (default redis://127.0.0.1:6379; redis+sentinel:// and redis+cluster:// too). SIGTERM/SIGINT: stop accepting, finish
 * in-flight calls, close Redis, exit.
 */
import { parseArgs } from 'node:util';
import { createPluginLogger, servePlugin } from '@hookgate/plugin-sdk';
import { loadLedgerConfig } from './config.js';
import { buildLedgerPlugin, DEFAULT_HOOK } from './plugin.js';
import { connectRedis, watchRedis } from './redis.js';
import { createLedgerStore } from './store.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { config: { type: 'string' }, listen: { type: 'string' }, hook: { type: 'string' } },
  });
  if (!values.config || !values.listen) {
    throw new Error(
      'usage: ledger --config <file.yaml> --listen <unix:///path.sock | host:port> [--hook <webhook name>]',
    );
  }
  const logger = createPluginLogger('ledger');
  const config = await loadLedgerConfig(values.config);
  const redis = await connectRedis(process.env, { keyPrefix: config.keyPrefix });
  watchRedis(redis, logger);
  const store = createLedgerStore(redis, {
    keyPrefix: config.keyPrefix,
    pendingTtlMs: config.pendingTtlSeconds * 1000,
  });
  const server = await servePlugin(buildLedgerPlugin({ config, store, hook: values.hook ?? DEFAULT_HOOK }), {
    listen: values.listen,
    logger,
  });

  const stop = (): void => {
    server
      .shutdown()
      .then(() => redis.quit())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
