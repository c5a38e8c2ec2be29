import { describe, expect, it } from 'vitest';
import type { DefaultingEnvironment } from './gateway-configuration.js';
import { parseGatewayConfiguration } from './parse-gateway-configuration.js';
import { targetProblem } from './plugin-list.js';

const env: DefaultingEnvironment = { configDir: '/etc/hookgate', cwd: '/home/me/project', isRoot: false, cpus: 2 };
const base = { apiVersion: 'hookgate.dev/v1alpha1', kind: 'GatewayConfiguration' };

describe('parseGatewayConfiguration defaults', () => {
  it('fills in every default for a minimal document', () => {
    const r = parseGatewayConfiguration(base, env);
    expect(r).toEqual({
      ok: true,
      value: {
        ...base,
        admission: { host: '127.0.0.1', port: 8443, tls: { disabled: false } },
        metrics: { host: '127.0.0.1', port: 9443 },
        stateDir: '/home/me/project/.hookgate/state',
        plugins: [],
        kubernetes: { mode: 'none' },
        namespaces: [],
        timeouts: { safetyMarginMs: 500, defaultRequestTimeoutSeconds: 10 },
        audit: { patchAnnotations: false },
        workers: 2,
        registry: { disabled: false, socket: '/home/me/project/.hookgate/state/registry.sock' },
        registration: { exemptNamespaces: ['kube-system', 'kube-node-lease'], reserve: [] },
        logLevel: 'info',
      },
    });
  });

  it('reads registration: exempt namespaces (none at all is allowed) and reserved rules', () => {
    const rules = [{ operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }];
    const r = parseGatewayConfiguration(
      {
        ...base,
        registration: { exemptNamespaces: [], reserve: [{ type: 'Mutating', failurePolicy: 'Ignore', rules }] },
      },
      env,
    );
    expect(r.ok && r.value.registration).toEqual({
      exemptNamespaces: [],
      reserve: [{ type: 'Mutating', failurePolicy: 'Ignore', rules }],
    });
  });

  it('uses /var/lib/hookgate as root', () => {
    const r = parseGatewayConfiguration(base, { ...env, isRoot: true });
    expect(r.ok && r.value.stateDir).toBe('/var/lib/hookgate');
  });

  it('keeps given values and resolves relative paths against the configuration directory', () => {
    const r = parseGatewayConfiguration(
      {
        ...base,
        admission: {
          host: '::1',
          port: 0,
          tls: { certFile: 'tls/tls.crt', keyFile: '/abs/tls.key', clientCAFile: 'ca.crt' },
          bearerTokenFile: 'token',
        },
        metrics: { host: '0.0.0.0', port: 9000 },
        stateDir: 'state',
        plugins: [
          {
            name: 'pod-defaults',
            target: 'unix:///run/hookgate/pod-defaults.sock',
            stream: true,
            command: ['node', 'main.ts', '--listen', '$(HOOKGATE_PLUGIN_TARGET)'],
          },
          {
            name: 'policy.example.com',
            target: '127.0.0.1:7001',
            tls: { caFile: 'plugin-ca.crt', certFile: 'c.crt', keyFile: 'c.key' },
          },
        ],
        kubernetes: { mode: 'kubeconfig', kubeconfig: 'kubeconfig' },
        timeouts: { safetyMarginMs: 200, defaultRequestTimeoutSeconds: 30 },
        audit: { patchAnnotations: true },
        workers: 1,
        registry: {
          socket: '/run/hookgate/registry.sock',
          clientTls: { certFile: 'registry-client.crt', keyFile: '/abs/registry-client.key' },
        },
        logLevel: 'debug',
      },
      env,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.admission).toEqual({
      host: '::1',
      port: 0,
      tls: {
        disabled: false,
        certFile: '/etc/hookgate/tls/tls.crt',
        keyFile: '/abs/tls.key',
        clientCAFile: '/etc/hookgate/ca.crt',
      },
      bearerTokenFile: '/etc/hookgate/token',
    });
    expect(r.value.stateDir).toBe('/etc/hookgate/state');
    expect(r.value.plugins).toEqual([
      {
        name: 'pod-defaults',
        target: 'unix:///run/hookgate/pod-defaults.sock',
        stream: true,
        command: ['node', 'main.ts', '--listen', '$(HOOKGATE_PLUGIN_TARGET)'],
      },
      {
        name: 'policy.example.com',
        target: '127.0.0.1:7001',
        tls: { caFile: '/etc/hookgate/plugin-ca.crt', certFile: '/etc/hookgate/c.crt', keyFile: '/etc/hookgate/c.key' },
      },
    ]);
    expect(r.value.kubernetes).toEqual({ mode: 'kubeconfig', kubeconfig: '/etc/hookgate/kubeconfig' });
    expect(r.value.registry).toEqual({
      disabled: false,
      socket: '/run/hookgate/registry.sock',
      clientTls: { certFile: '/etc/hookgate/registry-client.crt', keyFile: '/abs/registry-client.key' },
    });
    expect(r.value.audit).toEqual({ patchAnnotations: true });
  });

  it('adds the kubernetes.io/metadata.name label to static namespaces', () => {
    const r = parseGatewayConfiguration(
      { ...base, namespaces: [{ name: 'team-a', labels: { env: 'prod' } }, { name: 'bare' }] },
      env,
    );
    expect(r.ok && r.value.namespaces).toEqual([
      { name: 'team-a', labels: { env: 'prod', 'kubernetes.io/metadata.name': 'team-a' } },
      { name: 'bare', labels: { 'kubernetes.io/metadata.name': 'bare' } },
    ]);
  });

  it('treats null as absent, as Kubernetes objects do', () => {
    const r = parseGatewayConfiguration({ ...base, redis: null, admission: { tls: null } }, env);
    expect(r.ok).toBe(true);
  });
});

describe('parseGatewayConfiguration errors', () => {
  const cases: { name: string; doc: Record<string, unknown>; want: string[] }[] = [
    {
      name: 'registration: a namespace that is not a DNS label, a reserve entry without type and with a bad rule',
      doc: {
        registration: {
          exemptNamespaces: ['Kube_System'],
          reserve: [
            {
              failurePolicy: 'Sometimes',
              rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: [], resources: ['pods'] }],
            },
          ],
        },
      },
      want: [
        'registration.exemptNamespaces[0]: Invalid value: "Kube_System": a lowercase RFC 1123 label',
        'registration.reserve[0].type: Required value',
        'registration.reserve[0].failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"',
        'registration.reserve[0].rules[0].apiVersions: Required value',
      ],
    },
    {
      name: 'unknown top-level field, with a suggestion',
      doc: { admision: {} },
      want: ['admision: Unknown field: did you mean "admission"?'],
    },
    {
      name: 'unknown nested field',
      doc: { admission: { tls: { certfile: 'x' } } },
      want: ['admission.tls.certfile: Unknown field: did you mean "certFile"?'],
    },
    {
      name: 'unknown field without a close match',
      doc: { metrics: { scrapeInterval: '5s' } },
      want: ['metrics.scrapeInterval: Unknown field'],
    },
    {
      name: 'port as a string',
      doc: { admission: { port: '8443' } },
      want: ['admission.port: Invalid value: "8443": must be an integer'],
    },
    {
      name: 'port out of range',
      doc: { metrics: { port: 70000 } },
      want: ['metrics.port: Invalid value: 70000: must be between 0 and 65535, inclusive'],
    },
    {
      name: 'section of the wrong type',
      doc: { admission: 'yes' },
      want: ['admission: Invalid value: "yes": must be an object'],
    },
    {
      name: 'bad host',
      doc: { admission: { host: 'https://127.0.0.1' } },
      want: [
        'admission.host: Invalid value: "https://127.0.0.1": must be an IP address or a DNS name, without scheme or port',
      ],
    },
    {
      name: 'listeners on the same port',
      doc: { admission: { port: 9000 }, metrics: { port: 9000 } },
      want: ['metrics.port: Invalid value: 9000: must differ from admission.port on the same address'],
    },
    {
      name: 'certFile without keyFile',
      doc: { admission: { tls: { certFile: 'a' } } },
      want: ['admission.tls.keyFile: Required value: certFile and keyFile go together'],
    },
    {
      name: 'TLS files with TLS disabled',
      doc: { admission: { tls: { disabled: true, clientCAFile: 'ca' } } },
      want: ['admission.tls.clientCAFile: Forbidden: may not be set when tls.disabled is true'],
    },
    {
      name: 'plugin without name and target',
      doc: { plugins: [{}] },
      want: ['plugins[0].name: Required value', 'plugins[0].target: Required value'],
    },
    {
      name: 'duplicate plugin names and a bad target',
      doc: {
        plugins: [
          { name: 'p', target: '127.0.0.1:1' },
          { name: 'p', target: 'localhost' },
        ],
      },
      want: [
        'plugins[1].name: Duplicate value: "p"',
        'plugins[1].target: Invalid value: "localhost": must be unix:///absolute/path.sock or host:port ([::1]:port for IPv6)',
      ],
    },
    {
      name: 'plugin name not a DNS subdomain',
      doc: { plugins: [{ name: 'Pod_Defaults', target: '127.0.0.1:1' }] },
      want: ['plugins[0].name: Invalid value: "Pod_Defaults": a lowercase RFC 1123 subdomain'],
    },
    {
      name: 'plugin command empty',
      doc: { plugins: [{ name: 'p', target: '127.0.0.1:1', command: [] }] },
      want: ['plugins[0].command[0]: Required value: the program to run, then its arguments'],
    },
    {
      name: 'plugin command not a list of strings',
      doc: { plugins: [{ name: 'p', target: '127.0.0.1:1', command: 'node main.ts' }] },
      want: ['plugins[0].command: Invalid value: "node main.ts": must be a list of strings'],
    },
    {
      name: 'plugin stream not a boolean',
      doc: { plugins: [{ name: 'p', target: '127.0.0.1:1', stream: 'yes' }] },
      want: ['plugins[0].stream: Invalid value: "yes": must be true or false'],
    },
    {
      name: 'redis without url',
      doc: { redis: { prefix: 'hg' } },
      want: ['redis.url: Required value'],
    },
    {
      name: 'redis url of another scheme, password hidden',
      doc: { redis: { url: 'http://u:secret@127.0.0.1:6379' } },
      want: [
        'redis.url: Invalid value: "http://u:***@127.0.0.1:6379": must be a redis://, rediss://, redis+sentinel://, rediss+sentinel://, redis+cluster:// or rediss+cluster:// URL, not http://',
      ],
    },
    {
      name: 'redis url with a path that is not a database number',
      doc: { redis: { url: 'redis://127.0.0.1:6379/queues' } },
      want: ['redis.url: Invalid value: "redis://127.0.0.1:6379/queues": the path may only be a database number'],
    },
    {
      name: 'redis sentinel url without the master name, password hidden',
      doc: { redis: { url: 'redis+sentinel://:pw@s1:26379,s2:26379' } },
      want: [
        'redis.url: Invalid value: "redis+sentinel://:***@s1:26379,s2:26379": must name the master after the hosts (redis+sentinel://sentinel-1:26379,sentinel-2:26379/mymaster)',
      ],
    },
    {
      name: 'redis cluster url with a prefix without a hash tag',
      doc: { redis: { url: 'redis+cluster://n1:6379,n2:6379', prefix: 'hookgate' } },
      want: [
        'redis.prefix: Invalid value: "hookgate": has no {hash tag}, which Redis Cluster needs (every key of a queue must hash to one slot): use a prefix such as {hookgate}',
      ],
    },
    {
      name: 'redis prefix with the key separator',
      doc: { redis: { url: 'redis://127.0.0.1:6379', prefix: 'a:b' } },
      want: ['redis.prefix: Invalid value: "a:b": use letters, digits'],
    },
    {
      name: 'redis unknown field and a timeout out of range',
      doc: { redis: { url: 'redis://127.0.0.1:6379', addTimeoutMS: 5, connectTimeoutMs: 0 } },
      want: [
        'redis.connectTimeoutMs: Invalid value: 0: must be between 1 and 60000, inclusive',
        'redis.addTimeoutMS: Unknown field: did you mean "addTimeoutMs"?',
      ],
    },
    {
      name: 'spoolDir without redis',
      doc: { spoolDir: '/var/spool/hookgate' },
      want: ['spoolDir: Forbidden: may only be set with redis: the spool holds side-effect jobs on their way to Redis'],
    },
    {
      name: 'spool settings without redis',
      doc: { spool: { maxBytes: 1048576 } },
      want: ['spool: Forbidden: may only be set with redis'],
    },
    {
      name: 'spool too small, negative replay window',
      doc: { redis: { url: 'redis://127.0.0.1:6379' }, spool: { maxBytes: 100, replayWindowMinutes: -1 } },
      want: [
        'spool.maxBytes: Invalid value: 100: must be between 4096 and',
        'spool.replayWindowMinutes: Invalid value: -1: must be between 0 and 10080, inclusive',
      ],
    },
    {
      name: 'unknown kubernetes mode',
      doc: { kubernetes: { mode: 'incluster' } },
      want: ['kubernetes.mode: Unsupported value: "incluster": supported values: "none", "kubeconfig", "inCluster"'],
    },
    {
      name: 'kubeconfig without mode kubeconfig',
      doc: { kubernetes: { kubeconfig: '/k' } },
      want: ['kubernetes.kubeconfig: Forbidden: may only be set when mode is kubeconfig'],
    },
    {
      name: 'static namespaces with an apiserver',
      doc: { kubernetes: { mode: 'inCluster' }, namespaces: [{ name: 'a' }] },
      want: ['namespaces: Forbidden: static namespace labels are used only with kubernetes.mode none'],
    },
    {
      name: 'bad namespace name, label and duplicate',
      doc: { namespaces: [{ name: 'Team_A' }, { name: 'b', labels: { 'bad key!': 'v' } }, { name: 'b' }] },
      want: [
        'namespaces[0].name: Invalid value: "Team_A": a lowercase RFC 1123 label',
        'namespaces[1].labels: Invalid value: "bad key!"',
        'namespaces[2].name: Duplicate value: "b"',
      ],
    },
    {
      name: 'a name label that contradicts the name',
      doc: { namespaces: [{ name: 'a', labels: { 'kubernetes.io/metadata.name': 'b' } }] },
      want: [
        'namespaces[0].labels[kubernetes.io/metadata.name]: Invalid value: "b": must be the namespace name (the apiserver sets it)',
      ],
    },
    {
      name: 'safety margin too large',
      doc: { timeouts: { safetyMarginMs: 30000 } },
      want: ['timeouts.safetyMarginMs: Invalid value: 30000: must be between 0 and 29999, inclusive'],
    },
    {
      name: 'patchAnnotations not a boolean',
      doc: { audit: { patchAnnotations: 'yes' } },
      want: ['audit.patchAnnotations: Invalid value: "yes": must be true or false'],
    },
    {
      name: 'zero workers',
      doc: { workers: 0 },
      want: ['workers: Invalid value: 0: must be between 1 and 256, inclusive'],
    },
    {
      name: 'unknown log level',
      doc: { logLevel: 'verbose' },
      want: [
        'logLevel: Unsupported value: "verbose": supported values: "fatal", "error", "warn", "info", "debug", "trace", "silent"',
      ],
    },
    {
      name: 'registry socket too long',
      doc: { registry: { socket: `/${'x'.repeat(120)}` } },
      want: ['registry.socket: Invalid value: "/xxxx'],
    },
    {
      name: 'a registry client certificate without its key, and a CA (it comes from each registration)',
      doc: { registry: { clientTls: { certFile: 'c.crt', caFile: 'ca.crt' } } },
      want: [
        'registry.clientTls.keyFile: Required value: certFile and keyFile go together',
        'registry.clientTls.caFile: Unknown field',
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = parseGatewayConfiguration({ ...base, ...c.doc }, env);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      const messages = r.error.map((e) => e.message);
      expect(messages).toHaveLength(c.want.length);
      c.want.forEach((w, i) => expect(messages[i]).toContain(w));
    });
  }

  it.each([
    'redis+sentinel://s1:26379,s2:26379/mymaster/1?sentinelPassword=x',
    'rediss+sentinel://s1/mymaster',
    'redis+cluster://:pw@n1:6379,n2:6379',
    'rediss+cluster://n1',
  ])('takes the Sentinel and Cluster url %s', (url) => {
    const parsed = parseGatewayConfiguration({ ...base, redis: { url } }, env);
    expect(parsed.ok && parsed.value.redis?.url).toBe(url);
  });

  it('reads redis, spoolDir and spool with their defaults, the spool under stateDir unless given', () => {
    const minimal = parseGatewayConfiguration({ ...base, redis: { url: 'redis://127.0.0.1:6379' } }, env);
    expect(minimal.ok && { redis: minimal.value.redis, spool: minimal.value.spool }).toEqual({
      redis: {
        url: 'redis://127.0.0.1:6379',
        prefix: '{hookgate}',
        addTimeoutMs: 1000,
        connectTimeoutMs: 2000,
        identityCheckSeconds: 5,
      },
      spool: { dir: '/home/me/project/.hookgate/state/spool', maxBytes: 268435456, replayWindowMinutes: 10 },
    });
    const given = parseGatewayConfiguration(
      {
        ...base,
        redis: {
          url: 'rediss://:pw@redis.example:6380/2',
          prefix: '{hg-a}',
          addTimeoutMs: 250,
          identityCheckSeconds: 1,
        },
        spoolDir: 'spool',
        spool: { maxBytes: 65536, replayWindowMinutes: 0 },
      },
      env,
    );
    expect(given.ok && { redis: given.value.redis, spool: given.value.spool }).toEqual({
      redis: {
        url: 'rediss://:pw@redis.example:6380/2',
        prefix: '{hg-a}',
        addTimeoutMs: 250,
        connectTimeoutMs: 2000,
        identityCheckSeconds: 1,
      },
      spool: { dir: '/etc/hookgate/spool', maxBytes: 65536, replayWindowMinutes: 0 },
    });
  });

  it('reports every problem of a document at once, each with its field and rule', () => {
    const r = parseGatewayConfiguration(
      { ...base, admision: {}, workers: 0, plugins: [{ name: 'p' }], logLevel: 'loud' },
      env,
    );
    expect(r.ok ? [] : r.error.map((e) => [e.field, e.rule])).toEqual([
      ['plugins[0].target', 'FieldValueRequired'],
      ['workers', 'FieldValueInvalid'],
      ['logLevel', 'FieldValueNotSupported'],
      ['admision', 'FieldValueUnknown'],
    ]);
  });
});

describe('targetProblem', () => {
  const cases = [
    { name: 'unix socket', target: 'unix:///run/hookgate/p.sock', ok: true },
    { name: 'IPv4 and port', target: '127.0.0.1:7001', ok: true },
    { name: 'DNS name and port', target: 'plugin.example.com:443', ok: true },
    { name: 'bracketed IPv6', target: '[::1]:7001', ok: true },
    { name: 'relative unix path', target: 'unix:p.sock', ok: false },
    { name: 'unbracketed IPv6', target: '::1:7001', ok: false },
    { name: 'brackets around a name', target: '[localhost]:7001', ok: false },
    { name: 'port 0', target: '127.0.0.1:0', ok: false },
    { name: 'scheme', target: 'http://127.0.0.1:7001', ok: false },
    { name: 'no port', target: '127.0.0.1', ok: false },
  ];
  for (const c of cases) it(c.name, () => expect(targetProblem(c.target) === undefined).toBe(c.ok));
});
