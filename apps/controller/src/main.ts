#!/usr/bin/env node
/**
 * controller process: `hookgate-controller --config controller.yaml` (built: dist/main.js; from source: `npm start --`).
 * The only module that reads argv and the environment (REDIS_URL overrides redis.url).
 * SIGTERM/SIGINT: stop taking jobs, give running ones shutdownTimeoutMs, exit 0.
 */
import { parseArgs } from 'node:util';
import { createLogger } from '@hookgate/observability';
import { buildController, type Controller } from './build-controller.js';
import { loadControllerConfig } from './config.js';

const USAGE = 'usage: controller --config <controller.yaml>';

async function main(): Promise<number | undefined> {
  const { values } = parseArgs({ options: { config: { type: 'string' } } });
  if (values.config === undefined) {
    console.error(USAGE);
    return 2;
  }
  const loaded = await loadControllerConfig(values.config, process.env);
  if (!loaded.ok) {
    for (const error of loaded.errors) console.error(error);
    console.error(`the controller configuration ${values.config} is invalid: fix the fields above`);
    return 1;
  }
  const logger = createLogger({ component: 'controller', level: loaded.config.logLevel });
  // Signals are handled from the start: one arriving while the workers start stops them once started.
  const started: { controller?: Controller } = {};
  let requested: string | undefined;
  const stop = (signal: string): void => {
    const { controller } = started;
    if (controller === undefined) {
      requested = signal;
      return;
    }
    logger.info({ signal }, 'stopping');
    controller.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error instanceof Error ? error.message : String(error) }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  started.controller = await buildController(loaded.config, { logger });
  if (requested !== undefined) stop(requested);
  return undefined;
}

main().then(
  (code) => {
    if (code !== undefined) process.exit(code);
  },
  (error: unknown) => {
    console.error(`controller failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
