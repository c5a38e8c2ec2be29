/** Development and test tooling shared by the e2e tests, the local stack and the benchmarks. */
export {
  ensureRedis,
  startRedisServer,
  startTlsRedisServer,
  spawnRedisProcess,
  type RedisHandle,
  type RedisProcess,
  type RedisTlsFiles,
} from './redis.js';
export {
  SENTINEL_MASTER_NAME,
  startRedisCluster,
  startRedisSentinel,
  type RedisClusterTlsFiles,
  type RedisClusterTopology,
  type RedisSentinelTopology,
} from './redis-topologies.js';
export { connectRedis, deletePrefixedKeys, type RedisWithClient } from './redis-client.js';
export { freePort } from './free-port.js';
export { capturedLogger, type CapturedLogger } from './captured-logger.js';
export {
  CLI_BIN,
  REPO_ROOT,
  appliedGeneration,
  readGatewayCa,
  reloadConfig,
  rewriteConfig,
  startGateway,
  type GatewayProcess,
  type StartGatewayOptions,
} from './gateway-process.js';
export { collectProcessLog, type LogLine, type ProcessLog } from './process-log.js';
export {
  installProductionDependencies,
  writeProductionLayout,
  type InstallOptions,
  type ProductionLayout,
} from './production-layout.js';
