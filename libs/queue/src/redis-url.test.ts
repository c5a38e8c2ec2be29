import { describe, expect, it } from 'vitest';
import { clusterPrefixProblem, parseRedisUrl, redactRedisUrl, requireRedisUrl } from './redis-url.js';

describe('parseRedisUrl', () => {
  it.each([
    {
      url: 'redis://127.0.0.1:6379',
      want: { topology: 'standalone', tls: false, nodes: [{ host: '127.0.0.1', port: 6379 }], db: 0 },
    },
    {
      url: 'rediss://user:p%40ss@redis.example:6380/2',
      want: {
        topology: 'standalone',
        tls: true,
        nodes: [{ host: 'redis.example', port: 6380 }],
        db: 2,
        username: 'user',
        password: 'p@ss',
        redacted: 'rediss://user:***@redis.example:6380/2',
      },
    },
    { url: 'redis://:secret@h', want: { nodes: [{ host: 'h', port: 6379 }], password: 'secret', db: 0 } },
    { url: 'redis://[::1]:7000/', want: { nodes: [{ host: '::1', port: 7000 }] } },
    {
      url: 'redis+sentinel://s1,s2:26380,s3:26381/mymaster',
      want: {
        topology: 'sentinel',
        tls: false,
        masterName: 'mymaster',
        db: 0,
        nodes: [
          { host: 's1', port: 26379 },
          { host: 's2', port: 26380 },
          { host: 's3', port: 26381 },
        ],
      },
    },
    {
      url: 'rediss+sentinel://app:pw@s1:26379/queues/3?sentinelUsername=watch&sentinelPassword=s3cret',
      want: {
        topology: 'sentinel',
        tls: true,
        masterName: 'queues',
        db: 3,
        username: 'app',
        password: 'pw',
        sentinelUsername: 'watch',
        sentinelPassword: 's3cret',
        redacted: 'rediss+sentinel://app:***@s1:26379/queues/3?sentinelUsername=watch&sentinelPassword=***',
      },
    },
    {
      url: 'redis+cluster://:pw@n1:7000,n2:7001',
      want: {
        topology: 'cluster',
        tls: false,
        db: 0,
        password: 'pw',
        nodes: [
          { host: 'n1', port: 7000 },
          { host: 'n2', port: 7001 },
        ],
      },
    },
    { url: 'REDISS+CLUSTER://n1', want: { topology: 'cluster', tls: true, nodes: [{ host: 'n1', port: 6379 }] } },
  ])('$url', ({ url, want }) => {
    const parsed = parseRedisUrl(url);
    expect(parsed).toMatchObject({ ok: true, spec: want });
  });

  it.each([
    { url: 'localhost:6379', problem: /must be a URL of one of the forms/ },
    { url: 'http://u:secret@127.0.0.1:6379', problem: /not http:\/\// },
    { url: 'redis://', problem: /must name a host/ },
    { url: 'redis://a:1,b:2', problem: /names 2 hosts: redis:\/\/ is one Redis; use redis\+sentinel/ },
    { url: 'redis://h:6379/queues', problem: /the path may only be a database number/ },
    { url: 'redis://h:99999', problem: /host 1 \("h:99999"\): port 99999 is not between 1 and 65535/ },
    { url: 'redis://h:6379?family=6', problem: /unknown query parameter "family"/ },
    { url: 'redis+sentinel://s1:26379', problem: /must name the master after the hosts/ },
    { url: 'redis+sentinel://s1/m/x', problem: /database number/ },
    { url: 'redis+sentinel://s1/m/0/1', problem: /only be \/<master>\[\/<db>\]/ },
    { url: 'redis+sentinel://s1/m?sentinelPass=x', problem: /unknown query parameter "sentinelPass"/ },
    { url: 'redis+cluster://n1/0', problem: /Redis Cluster has only database 0/ },
    { url: 'redis+cluster://n1?sentinelPassword=x', problem: /takes none/ },
    { url: 'redis+cluster://n1,,n2', problem: /host 2 \(""\)/ },
    { url: 'redis://h#x', problem: /#fragment/ },
    // A password with an unencoded delimiter: refused without quoting it.
    { url: 'redis://default:se#cret@redis:6379', problem: /percent-encode them/ },
    { url: 'redis://default:se/cret@redis:6379', problem: /percent-encode them/ },
    { url: 'redis://:se?cret@redis:6379', problem: /percent-encode them/ },
  ])('refuses $url', ({ url, problem }) => {
    const parsed = parseRedisUrl(url);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problem).toMatch(problem);
      expect(parsed.problem).not.toContain('secret');
    }
  });

  it('names the field, with the password hidden, in the thrown error', () => {
    expect(() => requireRedisUrl('redis+sentinel://u:secret@s1:26379', 'redis.url')).toThrow(
      'invalid redis.url "redis+sentinel://u:***@s1:26379": must name the master after the hosts (redis+sentinel://sentinel-1:26379,sentinel-2:26379/mymaster)',
    );
  });
});

describe('redactRedisUrl', () => {
  it.each([
    ['redis://:secret@127.0.0.1:6379/0', 'redis://:***@127.0.0.1:6379/0'],
    ['rediss://user:secret@redis.example:6380', 'rediss://user:***@redis.example:6380'],
    ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
    ['redis+sentinel://u:a@b@s1/m?sentinelPassword=x&y=1', 'redis+sentinel://u:***@s1/m?sentinelPassword=***&y=1'],
    ['redis://secret@h:6379', 'redis://***@h:6379'],
    ['not a url', 'not a url'],
    ['user:secret@host:6379', 'user:***@host:6379'],
    ['redis://default:se#cret@redis:6379', 'redis://default:***@redis:6379'],
    ['redis://default:se/cret@redis:6379/0', 'redis://default:***@redis:6379/0'],
    ['redis://:se?cret@redis:6379', 'redis://:***@redis:6379'],
    ['redis+sentinel://s1/m?sentinelPassword=se#cret', 'redis+sentinel://s1/m?sentinelPassword=***'],
    [
      'redis+sentinel://s1/m?sentinelPassword=se@cret&sentinelUsername=w',
      'redis+sentinel://s1/m?sentinelPassword=***&sentinelUsername=w',
    ],
  ])('%s', (url, want) => expect(redactRedisUrl(url)).toBe(want));
});

describe('clusterPrefixProblem', () => {
  const spec = (url: string) => requireRedisUrl(url);
  it.each([
    { url: 'redis+cluster://n1', prefix: '{hookgate}', ok: true },
    { url: 'redis+cluster://n1', prefix: 'x{hookgate-ledger}y', ok: true },
    { url: 'redis+cluster://n1', prefix: 'hookgate', ok: false },
    { url: 'redis+cluster://n1', prefix: 'hook{}gate', ok: false },
    { url: 'redis://n1', prefix: 'hookgate', ok: true },
    { url: 'redis+sentinel://n1/m', prefix: 'hookgate', ok: true },
  ])('$prefix on $url', ({ url, prefix, ok }) => {
    const problem = clusterPrefixProblem(spec(url), prefix);
    if (ok) expect(problem).toBeUndefined();
    else expect(problem).toMatch(/has no \{hash tag\}, which Redis Cluster needs/);
  });
});
