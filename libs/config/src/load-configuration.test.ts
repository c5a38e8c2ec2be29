import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatConfigError } from './config-error.js';
import type { ConfigError } from './config-error.js';
import { loadConfiguration } from './load-configuration.js';

const CORPUS = fileURLToPath(new URL('../../../test/fixtures/corpus/webhook-configs/', import.meta.url));
const env = { cwd: '/work', isRoot: false, cpus: 2 };

const GATEWAY = `apiVersion: hookgate.dev/v1alpha1
kind: GatewayConfiguration
plugins:
  - name: pod-defaults
    target: unix:///run/hookgate/pod-defaults.sock
`;

const pluginHook = (kind: string, name: string, plugin = 'pod-defaults') => `apiVersion: admissionregistration.k8s.io/v1
kind: ${kind}
metadata:
  name: ${name}
webhooks:
  - name: ${name}.example.com
    clientConfig:
      plugin: ${plugin}
    rules:
      - operations: ["CREATE"]
        apiGroups: [""]
        apiVersions: ["v1"]
        resources: ["pods"]
    sideEffects: None
    admissionReviewVersions: ["v1"]
`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookgate-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, text);
  return file;
}

async function loadErrors(path: string): Promise<ConfigError[]> {
  const r = await loadConfiguration(path, { env });
  if (r.ok) throw new Error('expected the configuration to be refused');
  return r.error;
}

describe('loadConfiguration: the real-world corpus', async () => {
  const files = (await readdir(CORPUS)).filter((f) => f.endsWith('.yaml')).sort();

  it('has the corpus', () => expect(files).toHaveLength(25));

  for (const file of files) {
    it(`accepts ${file} beside a GatewayConfiguration`, async () => {
      await write('00-gateway.yaml', GATEWAY);
      await copyFile(join(CORPUS, file), join(dir, file));
      const raw = parseAllDocuments(await readFile(join(CORPUS, file), 'utf8'))[0]!.toJS() as {
        kind: string;
        metadata: { name: string };
        webhooks: unknown[];
      };
      const r = await loadConfiguration(dir, { env });
      if (!r.ok) throw new Error(r.error.map(formatConfigError).join('\n'));
      expect(r.value.webhookConfigurations).toHaveLength(1);
      const [config] = r.value.webhookConfigurations;
      expect(config).toMatchObject({ kind: raw.kind, name: raw.metadata.name });
      expect(config!.webhooks).toHaveLength(raw.webhooks.length);
      expect(r.value.sources.map((s) => [s.file, s.kind])).toEqual([
        [join(dir, '00-gateway.yaml'), 'GatewayConfiguration'],
        [join(dir, file), raw.kind],
      ]);
    });
  }

  it('refuses the whole corpus in one directory only for its same-name v1/v1beta1 pairs', async () => {
    await write('00-gateway.yaml', GATEWAY);
    for (const file of files) await copyFile(join(CORPUS, file), join(dir, file));
    const errors = await loadErrors(dir);
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) {
      expect(e.rule).toBe('DocumentDuplicate');
      expect(e.field).toBe('metadata.name');
    }
  });
});

describe('loadConfiguration: layout', () => {
  it('reads a file that reuses one anchor for many hooks, with merge keys as kubectl reads them', async () => {
    const hooks = Array.from({ length: 150 }, (_, i) => `  - name: h${i}.example.com\n    <<: *hook`).join('\n');
    const text = `${GATEWAY}---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata:\n  name: many\nx-defaults: &hook\n  clientConfig: { plugin: pod-defaults }\n  rules: [{ operations: [CREATE], apiGroups: [''], apiVersions: [v1], resources: [pods] }]\n  sideEffects: None\n  admissionReviewVersions: [v1]\nwebhooks:\n${hooks}\n`;
    await write('gw.yaml', text);
    const loaded = await loadConfiguration(dir);
    expect(loaded.ok ? [] : loaded.error).toEqual([]);
  });

  it('reads a multi-document file, skipping empty documents', async () => {
    const file = await write(
      'hookgate.yaml',
      `${GATEWAY}---\n${pluginHook('MutatingWebhookConfiguration', 'defaults')}---\n# nothing\n---\n${pluginHook('ValidatingWebhookConfiguration', 'policy')}`,
    );
    const r = await loadConfiguration(file, { env });
    if (!r.ok) throw new Error(r.error.map(formatConfigError).join('\n'));
    expect(r.value.webhookConfigurations.map((c) => [c.kind, c.name])).toEqual([
      ['MutatingWebhookConfiguration', 'defaults'],
      ['ValidatingWebhookConfiguration', 'policy'],
    ]);
    expect(r.value.sources.map((s) => s.document)).toEqual([1, 2, 4]);
    expect(r.value.webhookConfigurations[0]!.webhooks[0]).toMatchObject({
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      timeoutSeconds: 10,
      reinvocationPolicy: 'Never',
    });
  });

  it('reads a directory in name order: yaml, yml and json, not hidden files or other extensions', async () => {
    await write('b.yml', pluginHook('ValidatingWebhookConfiguration', 'b'));
    await write(
      'a.json',
      JSON.stringify(parseAllDocuments(pluginHook('ValidatingWebhookConfiguration', 'a'))[0]!.toJS()),
    );
    await write('c.yaml', GATEWAY);
    await write('.hidden.yaml', 'not: [valid');
    await write('README.md', '# notes');
    await write('..data/d.yaml', 'ignored: true');
    const r = await loadConfiguration(dir, { env });
    if (!r.ok) throw new Error(r.error.map(formatConfigError).join('\n'));
    expect(r.value.sources.map((s) => s.file.slice(dir.length + 1))).toEqual(['c.yaml', 'a.json', 'b.yml']);
  });

  it('expands a v1 List of webhook configurations', async () => {
    const items = ['a', 'b'].map((n) => parseAllDocuments(pluginHook('ValidatingWebhookConfiguration', n))[0]!.toJS());
    const file = await write('all.yaml', `${GATEWAY}---\n${JSON.stringify({ apiVersion: 'v1', kind: 'List', items })}`);
    const r = await loadConfiguration(file, { env });
    expect(r.ok && r.value.webhookConfigurations.map((c) => c.name)).toEqual(['a', 'b']);
  });

  it('resolves relative paths against the configuration directory and checks the files exist', async () => {
    await write('tls/tls.crt', 'cert');
    await write('tls/tls.key', 'key');
    const file = await write(
      'gw.yaml',
      `${GATEWAY}admission:\n  tls:\n    certFile: tls/tls.crt\n    keyFile: tls/tls.key\n`,
    );
    const r = await loadConfiguration(file, { env });
    expect(r.ok && r.value.gateway.admission.tls).toEqual({
      disabled: false,
      certFile: join(dir, 'tls/tls.crt'),
      keyFile: join(dir, 'tls/tls.key'),
    });
  });

  it('gives the same digest for the same files and another after a change', async () => {
    const file = await write('gw.yaml', GATEWAY);
    const first = await loadConfiguration(file, { env });
    const again = await loadConfiguration(file, { env });
    await write('gw.yaml', `${GATEWAY}logLevel: debug\n`);
    const changed = await loadConfiguration(file, { env });
    expect(first.ok && again.ok && changed.ok).toBe(true);
    if (first.ok && again.ok && changed.ok) {
      expect(again.value.digest).toBe(first.value.digest);
      expect(changed.value.digest).not.toBe(first.value.digest);
    }
  });
});

describe('loadConfiguration: errors name the file, document, line, field and rule', () => {
  const cases: { name: string; files: Record<string, string>; want: Partial<ConfigError>[] }[] = [
    {
      name: 'a typo in the GatewayConfiguration',
      files: { 'gw.yaml': `${GATEWAY}admision:\n  port: 1\n` },
      want: [
        {
          file: 'gw.yaml',
          document: 1,
          line: 6,
          object: 'GatewayConfiguration',
          field: 'admision',
          rule: 'FieldValueUnknown',
          message: 'admision: Unknown field: did you mean "admission"?',
        },
      ],
    },
    {
      name: 'an invalid webhook, located in its document',
      files: {
        'all.yaml': `${GATEWAY}---\n${pluginHook('ValidatingWebhookConfiguration', 'policy').replace('"CREATE"', '"PATCH"')}`,
      },
      want: [
        {
          file: 'all.yaml',
          document: 2,
          line: 16,
          object: 'ValidatingWebhookConfiguration "policy"',
          field: 'webhooks[0].rules[0].operations[0]',
          rule: 'FieldValueNotSupported',
        },
      ],
    },
    {
      name: 'a webhook naming an undeclared plugin',
      files: { 'gw.yaml': GATEWAY, 'hook.yaml': pluginHook('MutatingWebhookConfiguration', 'm', 'nope') },
      want: [
        {
          file: 'hook.yaml',
          document: 1,
          line: 8,
          field: 'webhooks[0].clientConfig.plugin',
          object: 'MutatingWebhookConfiguration "m"',
        },
      ],
    },
    {
      name: 'no GatewayConfiguration',
      files: { 'hook.yaml': pluginHook('MutatingWebhookConfiguration', 'm') },
      want: [{ file: '', document: 0, rule: 'DocumentMissing' }],
    },
    {
      name: 'two GatewayConfigurations',
      files: { 'a.yaml': GATEWAY, 'b.yaml': GATEWAY },
      want: [{ file: 'b.yaml', document: 1, rule: 'DocumentDuplicate' }],
    },
    {
      name: 'a document of another kind',
      files: { 'gw.yaml': `${GATEWAY}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n` },
      want: [{ file: 'gw.yaml', document: 2, line: 7, rule: 'DocumentNotSupported' }],
    },
    {
      name: 'a GatewayConfiguration of an unknown version',
      files: { 'gw.yaml': GATEWAY.replace('v1alpha1', 'v1') },
      want: [{ file: 'gw.yaml', document: 1, rule: 'DocumentNotSupported' }, { rule: 'DocumentMissing' }],
    },
    {
      name: 'a YAML syntax error',
      files: { 'gw.yaml': `${GATEWAY}metrics:\n  port: [1\n` },
      want: [{ file: 'gw.yaml', document: 1, line: 8, rule: 'YAMLSyntax' }],
    },
    {
      name: 'a duplicate key',
      files: { 'gw.yaml': `${GATEWAY}workers: 1\nworkers: 2\n` },
      want: [{ file: 'gw.yaml', document: 1, line: 7, rule: 'YAMLSyntax', message: 'Map keys must be unique' }],
    },
    {
      name: 'aliases that expand without bound (billion laughs)',
      files: {
        'gw.yaml': `${GATEWAY}---\n${[
          'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
          ...Array.from(
            { length: 9 },
            (_, i) =>
              `l${i + 1}: &l${i + 1} [${Array(9)
                .fill(i === 0 ? '*a' : `*l${i}`)
                .join(', ')}]`,
          ),
        ].join('\n')}\n`,
      },
      want: [
        {
          file: 'gw.yaml',
          document: 2,
          rule: 'YAMLSyntax',
          message: 'Excessive alias count indicates a resource exhaustion attack',
        },
      ],
    },
    {
      name: 'a document that is not an object',
      files: { 'gw.yaml': `${GATEWAY}---\n- just\n- a list\n` },
      want: [{ file: 'gw.yaml', document: 2, rule: 'DocumentNotSupported' }],
    },
    {
      name: 'two configurations of the same kind and name',
      files: {
        'gw.yaml': GATEWAY,
        'a.yaml': pluginHook('MutatingWebhookConfiguration', 'same'),
        'b.yaml': pluginHook('MutatingWebhookConfiguration', 'same'),
      },
      want: [{ file: 'b.yaml', document: 1, line: 4, field: 'metadata.name', rule: 'DocumentDuplicate' }],
    },
    {
      name: 'a file the configuration names that does not exist',
      files: { 'gw.yaml': `${GATEWAY}admission:\n  bearerTokenFile: missing-token\n` },
      want: [{ file: 'gw.yaml', line: 7, field: 'admission.bearerTokenFile', rule: 'FieldValueInvalid' }],
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      for (const [name, text] of Object.entries(c.files)) await write(name, text);
      const errors = await loadErrors(dir);
      const rel = errors.map((e) => ({ ...e, file: e.file === dir ? '' : e.file.slice(dir.length + 1) }));
      expect(rel).toHaveLength(c.want.length);
      c.want.forEach((w, i) => expect(rel[i]).toMatchObject(w));
    });
  }

  it('reports the problems of every document at once', async () => {
    await write('gw.yaml', `${GATEWAY}workers: 0\nlogLevel: loud\n`);
    await write('a.yaml', pluginHook('MutatingWebhookConfiguration', 'a', 'nope'));
    await write(
      'b.yaml',
      pluginHook('ValidatingWebhookConfiguration', 'b').replace('sideEffects: None', 'sideEffects: Maybe'),
    );
    await write('c.yaml', 'apiVersion: example.com/v1\nkind: Widget\n');
    const errors = await loadErrors(dir);
    expect(errors.map((e) => [e.file.slice(dir.length + 1), e.field])).toEqual([
      ['c.yaml', ''],
      ['gw.yaml', 'workers'],
      ['gw.yaml', 'logLevel'],
      ['a.yaml', 'webhooks[0].clientConfig.plugin'],
      ['b.yaml', 'webhooks[0].sideEffects'],
    ]);
  });

  it('formats an error with its place', () => {
    const e: ConfigError = {
      file: '/etc/hookgate/hooks.yaml',
      document: 2,
      line: 14,
      object: 'ValidatingWebhookConfiguration "x"',
      field: 'webhooks[0].name',
      rule: 'FieldValueRequired',
      message: 'webhooks[0].name: Required value',
    };
    expect(formatConfigError(e)).toBe(
      '/etc/hookgate/hooks.yaml:14 (document 2, ValidatingWebhookConfiguration "x"): webhooks[0].name: Required value',
    );
    expect(
      formatConfigError({
        file: '/etc/hookgate',
        document: 0,
        field: '',
        rule: 'DocumentMissing',
        message: 'no GatewayConfiguration',
      }),
    ).toBe('/etc/hookgate: no GatewayConfiguration');
  });

  it('reports an unreadable path', async () => {
    const errors = await loadErrors(join(dir, 'nope.yaml'));
    expect(errors).toMatchObject([{ rule: 'FileUnreadable', document: 0 }]);
  });

  it('reports a directory without configuration files', async () => {
    await write('notes.txt', 'hello');
    expect(await loadErrors(dir)).toMatchObject([
      { rule: 'DocumentMissing', message: 'the directory holds no *.yaml, *.yml or *.json file' },
    ]);
  });
});

describe('webhook configurations without a GatewayConfiguration (allowStandalone)', () => {
  it('loads them with the default gateway settings and leaves plugin names unchecked', async () => {
    const file = await write('hook.yaml', pluginHook('MutatingWebhookConfiguration', 'm', 'not-declared'));
    const r = await loadConfiguration(file, { env, allowStandalone: true });
    if (!r.ok) throw new Error(r.error.map(formatConfigError).join('\n'));
    expect(r.value).toMatchObject({ standalone: true, gateway: { plugins: [], admission: { port: 8443 } } });
    expect(r.value.webhookConfigurations.map((c) => c.name)).toEqual(['m']);
    expect(r.value.sources).toMatchObject([{ file, kind: 'MutatingWebhookConfiguration', name: 'm' }]);
  });

  it('still reports every problem of the webhook configurations', async () => {
    const file = await write('hook.yaml', pluginHook('MutatingWebhookConfiguration', 'm').replace('CREATE', 'PATCH'));
    const r = await loadConfiguration(file, { env, allowStandalone: true });
    expect(r.ok ? [] : r.error).toMatchObject([
      { line: 10, field: 'webhooks[0].rules[0].operations[0]', rule: 'FieldValueNotSupported' },
    ]);
  });

  it('checks plugin names when a GatewayConfiguration is there', async () => {
    const file = await write(
      'all.yaml',
      `${GATEWAY}---\n${pluginHook('MutatingWebhookConfiguration', 'm', 'pod-default')}`,
    );
    const r = await loadConfiguration(file, { env, allowStandalone: true });
    expect(r.ok ? [] : r.error.map((e) => e.message)).toEqual([
      'webhooks[0].clientConfig.plugin: Unsupported value: "pod-default": supported values: "pod-defaults"',
    ]);
  });
});

describe('the side-effect queue settings', () => {
  it('reports a spool setting without redis, and a bad redis url, with where they are and what to do', async () => {
    const file = await write('gw.yaml', `${GATEWAY}spoolDir: /var/spool/hookgate\n`);
    expect((await loadErrors(file)).map(formatConfigError)).toEqual([
      `${file}:6 (document 1, GatewayConfiguration): spoolDir: Forbidden: may only be set with redis: the spool holds side-effect jobs on their way to Redis`,
    ]);
    const bad = await write('bad.yaml', `${GATEWAY}redis:\n  url: http://user:hunter2@127.0.0.1:6379\n`);
    expect((await loadErrors(bad)).map(formatConfigError)).toEqual([
      `${bad}:7 (document 1, GatewayConfiguration): redis.url: Invalid value: "http://user:***@127.0.0.1:6379": must be a redis://, rediss://, redis+sentinel://, rediss+sentinel://, redis+cluster:// or rediss+cluster:// URL, not http://`,
    ]);
  });
});

describe('README', () => {
  it('shows a complete example that loads', async () => {
    const readme = await readFile(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');
    const example = /```yaml\n([\s\S]*?)```/.exec(readme)![1]!;
    const file = await write('example.yaml', example);
    const r = await loadConfiguration(file, { env, checkFiles: false });
    if (!r.ok) throw new Error(r.error.map(formatConfigError).join('\n'));
    expect(r.value.gateway.plugins.map((p) => p.name)).toEqual(['pod-defaults', 'policy']);
    expect(r.value.webhookConfigurations.map((c) => c.name)).toEqual(['pod-defaults']);
  });
});
