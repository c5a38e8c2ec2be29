/**
 * The one connection-string syntax of every Hookgate component that talks to Redis (gateway
 * `redis.url`, controller `redis.url` and REDIS_URL, the ledger plugin's REDIS_URL, `hookgate queue
 * --redis`). Pure: no I/O, no ioredis, so configuration parsers can load it cheaply.
 *
 *   redis://[user:password@]host[:6379][/db]                    one Redis (rediss:// for TLS)
 *   redis+sentinel://[user:password@]s1[:26379],s2[,...]/master[/db][?sentinelUsername=u&sentinelPassword=p]
 *   redis+cluster://[user:password@]n1[:6379],n2[,...]          Redis Cluster seed nodes
 *
 * `rediss+sentinel://` and `rediss+cluster://` use TLS for every connection (sentinels included).
 * The `redis+sentinel` form with the master name as the first path segment is the one redis-py
 * tools (redis-sentinel-url, RedisVL, Prefect) settled on; `redis+cluster` follows it. The userinfo
 * authenticates to the data nodes (the master and replicas, or the cluster nodes); Sentinels often
 * have a password of their own (`requirepass` in sentinel.conf), hence the query parameters, named
 * as ioredis' options are. Without them the Sentinels are reached without AUTH.
 */

import { HG_ERR_QUEUE_OPTION_INVALID } from '@hookgate/errors';

export type RedisTopology = 'standalone' | 'sentinel' | 'cluster';

export interface RedisNodeAddress {
  readonly host: string;
  readonly port: number;
}

/** A parsed connection string: everything the client factory needs, nothing else. */
export interface RedisConnectionSpec {
  readonly topology: RedisTopology;
  readonly tls: boolean;
  /** The Redis (standalone), the Sentinels (sentinel) or the seed nodes (cluster). */
  readonly nodes: readonly RedisNodeAddress[];
  readonly username?: string;
  readonly password?: string;
  /** Logical database: always 0 on Cluster (it has no other). */
  readonly db: number;
  /** Sentinel only: the monitored master's name (`sentinel monitor <name> ...`). */
  readonly masterName?: string;
  readonly sentinelUsername?: string;
  readonly sentinelPassword?: string;
  /** The URL as given, with every password replaced by `***`: for messages and logs. */
  readonly redacted: string;
}

export type RedisUrlParse =
  { readonly ok: true; readonly spec: RedisConnectionSpec } | { readonly ok: false; readonly problem: string };

const SCHEMES: Readonly<Record<string, { topology: RedisTopology; tls: boolean }>> = {
  redis: { topology: 'standalone', tls: false },
  rediss: { topology: 'standalone', tls: true },
  'redis+sentinel': { topology: 'sentinel', tls: false },
  'rediss+sentinel': { topology: 'sentinel', tls: true },
  'redis+cluster': { topology: 'cluster', tls: false },
  'rediss+cluster': { topology: 'cluster', tls: true },
};
const DEFAULT_PORT: Readonly<Record<RedisTopology, number>> = { standalone: 6379, sentinel: 26379, cluster: 6379 };
const SENTINEL_PARAMS = ['sentinelUsername', 'sentinelPassword'] as const;

/** What each form looks like, for the end of a message. */
export const REDIS_URL_FORMS =
  'redis://[user:password@]host:port[/db], redis+sentinel://[user:password@]host:26379[,host:26379...]/<master>[/db] or redis+cluster://[user:password@]host:port[,host:port...] (rediss... for TLS)';

/** Parses a connection string; a problem says what is wrong, never quoting a password. */
export function parseRedisUrl(url: string): RedisUrlParse {
  const fail = (problem: string): RedisUrlParse => ({ ok: false, problem });
  const schemeMatch = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/(.*)$/s.exec(url.trim());
  if (schemeMatch === null) return fail(`must be a URL of one of the forms ${REDIS_URL_FORMS}`);
  const scheme = schemeMatch[1]!.toLowerCase();
  const kind = SCHEMES[scheme];
  if (kind === undefined)
    return fail(
      `must be a redis://, rediss://, redis+sentinel://, rediss+sentinel://, redis+cluster:// or rediss+cluster:// URL, not ${scheme}://`,
    );
  let rest = schemeMatch[2]!;
  if (passwordHoldsDelimiter(rest))
    return fail('the user name or password holds "/", "?" or "#": percent-encode them (%2F, %3F, %23)');
  if (rest.includes('#')) return fail('must not have a #fragment');
  const queryAt = rest.indexOf('?');
  const query = queryAt >= 0 ? rest.slice(queryAt + 1) : '';
  if (queryAt >= 0) rest = rest.slice(0, queryAt);
  const slash = rest.indexOf('/');
  const authority = slash >= 0 ? rest.slice(0, slash) : rest;
  const path = slash >= 0 ? rest.slice(slash) : '';
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at) : undefined;
  const hostList = at >= 0 ? authority.slice(at + 1) : authority;

  const credentials = userinfo === undefined ? {} : parseUserinfo(userinfo);
  if (typeof credentials === 'string') return fail(credentials);

  const nodes: RedisNodeAddress[] = [];
  for (const [i, entry] of (hostList === '' ? [] : hostList.split(',')).entries()) {
    const node = parseHostPort(entry, DEFAULT_PORT[kind.topology]);
    if (typeof node === 'string') return fail(`host ${i + 1} (${JSON.stringify(entry)}): ${node}`);
    nodes.push(node);
  }
  if (nodes.length === 0) return fail(`must name a host (${example(scheme, kind.topology)})`);
  if (kind.topology === 'standalone' && nodes.length > 1)
    return fail(
      `names ${nodes.length} hosts: ${scheme}:// is one Redis; use ${kind.tls ? 'rediss' : 'redis'}+sentinel:// or ${kind.tls ? 'rediss' : 'redis'}+cluster:// for several`,
    );

  const segments = path === '' || path === '/' ? [] : path.slice(1).split('/');
  let masterName: string | undefined;
  let dbText: string | undefined;
  if (kind.topology === 'sentinel') {
    if (segments.length === 0 || segments[0] === '')
      return fail(`must name the master after the hosts (${example(scheme, 'sentinel')})`);
    if (segments.length > 2) return fail('the path may only be /<master>[/<db>]');
    masterName = decode(segments[0]!);
    if (masterName === undefined || !/^[\w.-]+$/.test(masterName))
      return fail(`master name ${JSON.stringify(segments[0])}: use letters, digits, '-', '_' and '.'`);
    dbText = segments[1];
  } else if (kind.topology === 'cluster') {
    if (segments.length > 0)
      return fail('must not have a path: Redis Cluster has only database 0 (redis+cluster://host:port,host:port)');
  } else {
    if (segments.length > 1) return fail('the path may only be a database number (redis://host:port/0)');
    dbText = segments[0];
  }
  let db = 0;
  if (dbText !== undefined && dbText !== '') {
    if (!/^\d{1,5}$/.test(dbText))
      return fail(
        `the path may only be a database number (${kind.topology === 'sentinel' ? `${scheme}://host:26379/<master>/0` : 'redis://host:port/0'})`,
      );
    db = Number(dbText);
  }

  const params = parseQuery(query, kind.topology);
  if (typeof params === 'string') return fail(params);

  const spec: RedisConnectionSpec = {
    topology: kind.topology,
    tls: kind.tls,
    nodes,
    db,
    redacted: redactRedisUrl(url),
    ...credentials,
    ...(masterName !== undefined ? { masterName } : {}),
    ...params,
  };
  return { ok: true, spec };
}

/** The parsed URL, or HG_ERR_QUEUE_OPTION_INVALID naming `field` and what is wrong. */
export function requireRedisUrl(url: string, field = 'redisUrl'): RedisConnectionSpec {
  const parsed = parseRedisUrl(url);
  if (!parsed.ok) {
    throw new HG_ERR_QUEUE_OPTION_INVALID(field, JSON.stringify(redactRedisUrl(url)), parsed.problem);
  }
  return parsed.spec;
}

/**
 * The URL as given, with its passwords (userinfo, sentinelPassword) replaced by `***`; works on
 * unparsable ones too. It errs on the side of hiding: everything up to the last `@` is userinfo,
 * even when a password holds `/`, `?` or `#` unencoded (a URL parser would end the userinfo there).
 */
export function redactRedisUrl(url: string): string {
  // Up to the next `&` only: a password may hold `#` or `@`.
  const masked = url.replace(/([?&]sentinelPassword=)[^&]*/gi, (_, head: string) => `${head}***`);
  const head = /^[^:/?#@]*:\/\//.exec(masked)?.[0] ?? '';
  const at = masked.lastIndexOf('@');
  if (at < head.length) return masked;
  const userinfo = masked.slice(head.length, at);
  const colon = userinfo.indexOf(':');
  // `user:password@` keeps the user name; a lone userinfo is the password (parseUserinfo).
  const user = colon >= 0 && !/[/?#]/.test(userinfo.slice(0, colon)) ? userinfo.slice(0, colon + 1) : '';
  return `${head}${user}***${masked.slice(at)}`;
}

/**
 * Whether an `@` past the first `/`, `?` or `#` ends a userinfo: a password with one of those
 * characters unencoded. (An `@` in a query value follows a `=`; hosts and master names hold none.)
 */
function passwordHoldsDelimiter(rest: string): boolean {
  const delimiter = rest.search(/[/?#]/);
  if (delimiter < 0) return false;
  const at = rest.lastIndexOf('@');
  return at > delimiter && !rest.slice(delimiter, at).includes('=');
}

/** Whether a key prefix holds a Redis Cluster hash tag (`{...}`, non-empty). */
export function hasHashTag(prefix: string): boolean {
  return /\{[^{}]+\}/.test(prefix);
}

/**
 * On Cluster, every key a multi-key command or script touches must hash to one slot: BullMQ's scripts
 * and our MULTI and MGET need a prefix with a `{hash tag}`. Says what to do when it has none.
 */
export function clusterPrefixProblem(spec: RedisConnectionSpec, prefix: string): string | undefined {
  if (spec.topology !== 'cluster' || hasHashTag(prefix)) return undefined;
  return `has no {hash tag}, which Redis Cluster needs (every key of a queue must hash to one slot): use a prefix such as {hookgate}`;
}

function parseUserinfo(userinfo: string): { username?: string; password?: string } | string {
  const colon = userinfo.indexOf(':');
  const rawUser = colon >= 0 ? userinfo.slice(0, colon) : userinfo;
  const rawPassword = colon >= 0 ? userinfo.slice(colon + 1) : undefined;
  const username = decode(rawUser);
  const password = rawPassword === undefined ? undefined : decode(rawPassword);
  if (username === undefined) return 'the user name has a malformed %-escape';
  if (password === undefined && rawPassword !== undefined) return 'the password has a malformed %-escape';
  // `redis://secret@host` (no colon): the password, as redis-cli reads it (ioredis's own parser
  // would take it as a user name with no password; a URL with a user name says `user:password@`).
  if (rawPassword === undefined) return username === '' ? {} : { password: username };
  return { ...(username !== '' ? { username } : {}), ...(password !== '' ? { password } : {}) };
}

function parseHostPort(entry: string, defaultPort: number): RedisNodeAddress | string {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]\s]+)(?::(\d*))?$/.exec(entry);
  if (match === null) return 'must be host or host:port (IPv6 in brackets: [::1]:6379)';
  const host = match[1]!.replace(/^\[|\]$/g, '');
  if (!/^[A-Za-z0-9.:_-]+$/.test(host)) return 'the host may hold letters, digits, "-", "_" and "."';
  const portText = match[2];
  if (portText === undefined || portText === '') return { host, port: defaultPort };
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return `port ${portText} is not between 1 and 65535`;
  return { host, port };
}

function parseQuery(
  query: string,
  topology: RedisTopology,
): { sentinelUsername?: string; sentinelPassword?: string } | string {
  const found: { sentinelUsername?: string; sentinelPassword?: string } = {};
  if (query === '') return found;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = eq >= 0 ? pair.slice(0, eq) : pair;
    const value = decode(eq >= 0 ? pair.slice(eq + 1) : '');
    const known = (SENTINEL_PARAMS as readonly string[]).includes(name);
    if (!known || topology !== 'sentinel') {
      return topology === 'sentinel'
        ? `unknown query parameter ${JSON.stringify(name)}: only sentinelUsername and sentinelPassword (the Sentinels' own credentials)`
        : `unknown query parameter ${JSON.stringify(name)}: a ${topology === 'cluster' ? 'redis+cluster' : 'redis'}:// URL takes none`;
    }
    if (value === undefined) return `query parameter ${name} has a malformed %-escape`;
    if (value !== '') found[name as (typeof SENTINEL_PARAMS)[number]] = value;
  }
  return found;
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function example(scheme: string, topology: RedisTopology): string {
  if (topology === 'sentinel') return `${scheme}://sentinel-1:26379,sentinel-2:26379/mymaster`;
  if (topology === 'cluster') return `${scheme}://node-1:6379,node-2:6379`;
  return `${scheme}://host:6379`;
}
