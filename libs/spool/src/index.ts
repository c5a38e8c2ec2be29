/**
 * @hookgate/spool: a durable local buffer of opaque records (the gateway's side-effect jobs while
 * Redis is unreachable): append-only checksummed segments, group commit, recovery on open,
 * acknowledgements that survive restarts, replay of recently acknowledged records, a hard size cap.
 *
 *   const spool = await Spool.open({ dir: '/var/lib/hookgate/spool', maxBytes: 64 * 1024 * 1024 });
 *   const { seq } = await spool.append(Buffer.from(json));    // resolves once fsynced
 *   for await (const record of spool.pending()) {              // oldest first
 *     await handOn(record.payload);
 *     await spool.acknowledge(record.seq);                     // persisted
 *   }
 *   spool.acknowledgeSoon((await spool.append(copy)).seq);     // a copy kept for replay: persisted within 1 s
 *   for await (const record of spool.replaySince(Date.now() - 10 * 60_000)) await handOn(record.payload);
 *   spool.stats();                                             // depth, bytes, oldest age, fsync time
 *   await spool.close();
 */
export { Spool } from './spool.js';
export type { AppendedRecord, SpoolRecord, SpoolStats } from './spool.js';
export { SPOOL_DEFAULTS } from './spool-options.js';
export type { SpoolOptions } from './spool-options.js';
export type { RecoveryReport, SpoolDamage } from './recover-directory.js';
