/**
 * Request ids for log lines (`reqId`). fastify's default counts from `req-1` in every process, so
 * the workers of one gateway (and every restart) repeat each other's ids. Here each process draws
 * a random prefix once and counts after it: `3f9a1c07b2e4-1`, `3f9a1c07b2e4-2`, … Unique across
 * workers and restarts (48 random bits), cheap per request, and the prefix tells which process
 * served a request.
 */
import { randomBytes } from 'node:crypto';

export type RequestIdGenerator = () => string;

export function createRequestIds(prefix: string = randomBytes(6).toString('hex')): RequestIdGenerator {
  let counter = 0;
  return () => `${prefix}-${++counter}`;
}
