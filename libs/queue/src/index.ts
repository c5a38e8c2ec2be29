/**
 * @hookgate/queue: side-effect reconciliation jobs on BullMQ. The job schema and its decoder, the
 * builder from what the gateway knows, deterministic job ids, queue and key names, the producer
 * (fail fast, added vs duplicate), the Redis identity probe and the retry backoff.
 *
 *   const job = buildSideEffectJob({ plugin, effect, admission: summarizeAdmission(request, phase),
 *                                    decision: decisionFromOutcome(outcome), gateway, time: Date.now() });
 *   const { outcome } = await producer.add(job);          // 'added' | 'duplicate', or a coded error: spool it
 *   const decoded = decodeJob(bullJob.data);             // in the controller: a value, never a throw
 *   const result = await processJob({ data, state }, deps, attempt);   // done | delay | retry | fail
 *
 * The controller's reader of the cluster is its own entry point, `@hookgate/queue/kubernetes`
 * (client-node is slow to load; the gateway never needs it).
 */
// The schema, builder, decoder and ids (also `@hookgate/queue/jobs`, without BullMQ).
export * from './jobs.js';
export {
  DEFAULT_QUEUE_PREFIX,
  JOB_NAMES,
  QUEUE_NAME_PREFIX,
  RESYNC_SCHEDULER_ID,
  jobKey,
  pluginOfQueueName,
  reconcileQueueName,
  validateQueuePrefix,
} from './queue-names.js';
export { discoverPluginQueues } from './discover-queues.js';
export {
  BACKOFF_TYPE,
  DEFAULT_BACKOFF,
  buildBackoffStrategy,
  computeBackoffDelay,
  computeBackoffStep,
  type BackoffOptions,
  type ReconcileBackoffStrategy,
} from './backoff.js';
export { parseRunId, readRedisRunId, type InfoClient, type SlotClient } from './redis-identity.js';
export {
  REDIS_URL_FORMS,
  clusterPrefixProblem,
  hasHashTag,
  parseRedisUrl,
  requireRedisUrl,
  type RedisConnectionSpec,
  type RedisNodeAddress,
  type RedisTopology,
  type RedisUrlParse,
} from './redis-url.js';
export {
  REDIS_CLIENT_BEHAVIOUR,
  createRedisClient,
  describeRedisError,
  isCluster,
  redisErrorCode,
  type RedisClient,
  type RedisClientBehaviour,
} from './redis-client.js';
export {
  PRODUCER_DEFAULTS,
  redactRedisUrl,
  type ResolvedProducerOptions,
  type SideEffectProducerOptions,
} from './producer-options.js';
export { SideEffectProducer, type AddOutcome, type AddResult, type StoredSideEffectJob } from './producer.js';
export {
  PERSISTENCE_RULES,
  decidePersistence,
  describePersistenceRule,
  type Observation,
  type ObservedObject,
  type Persistence,
  type PersistenceFacts,
  type PersistenceRule,
  type PersistenceVerdict,
  type ReadStage,
  type SettledRule,
} from './decide-persistence.js';
export {
  describeObjectRef,
  objectRefOf,
  type ObjectRef,
  type ReadObject,
  type ReadUnavailable,
} from './object-reader.js';
export { buildReconcileRequest } from './reconcile-message.js';
export {
  DEFAULT_PROCESS_TIMING,
  processJob,
  type ProcessJobDeps,
  type ProcessJobResult,
  type ProcessTiming,
  type ReconcileAnswer,
  type ReconcileJobInput,
  type ReconcileJobState,
} from './process-job.js';
export { pluginClientReconciler, unknownPluginOutcome, type PluginReconcilerOptions } from './plugin-reconciler.js';
export { resyncPlugin, type ResyncCounts, type ResyncDeps, type ResyncResult } from './resync.js';
export {
  REGISTERED_PLUGINS_SCHEMA,
  decodePublishedPluginSet,
  publishRegisteredPlugins,
  readRegisteredPlugins,
  registeredPluginsIndexKey,
  registeredPluginsKey,
  samePluginTls,
  unionOfRegisteredPlugins,
  withdrawRegisteredPlugins,
  type PublishedPlugin,
  type PublishedPluginTls,
  type PublishedPluginSet,
  type RegisteredPlugin,
  type RegisteredPluginsRead,
  type RegisteredPluginsUnion,
} from './registered-plugins.js';
