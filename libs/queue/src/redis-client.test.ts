import { describe, expect, it } from 'vitest';
import { describeRedisError, redisErrorCode } from './redis-client.js';

/** What ioredis's Cluster client emits when no seed node answers: its own text, the node's error kept aside. */
function clusterAllFailed(nodeError: Error): Error {
  return Object.assign(new Error('Failed to refresh slots cache.'), { lastNodeError: nodeError });
}

describe('describeRedisError', () => {
  it("appends a Cluster client's last node error, and takes its code", () => {
    const tls = Object.assign(new Error('self-signed certificate in certificate chain'), {
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    expect(describeRedisError(clusterAllFailed(tls))).toBe(
      'Failed to refresh slots cache. (last node error: self-signed certificate in certificate chain)',
    );
    expect(redisErrorCode(clusterAllFailed(tls))).toBe('SELF_SIGNED_CERT_IN_CHAIN');
  });

  it('leaves any other error as it is', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(describeRedisError(refused)).toBe('connect ECONNREFUSED 127.0.0.1:1');
    expect(redisErrorCode(refused)).toBe('ECONNREFUSED');
    expect(redisErrorCode(new Error('x'))).toBeUndefined();
  });
});
