/** ledger plugin: unique values reserved in Redis, settled by Reconcile. See README.md. */
export { buildLedgerPlugin, admitToLedger, reconcileSideEffect, PLUGIN_NAME, DEFAULT_HOOK } from './plugin.js';
export { parseLedgerConfig, loadLedgerConfig, type LedgerSettings } from './config.js';
export { createLedgerStore, type LedgerStore, type LedgerStoreOptions, type Reservation } from './store.js';
export { connectRedis, watchRedis, RedisUnreachableError } from './redis.js';
export { PluginConfigError } from '@hookgate/plugin-sdk';
export * from './decide.js';
