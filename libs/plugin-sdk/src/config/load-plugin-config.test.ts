import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FieldReader } from '@hookgate/admission';
import { loadPluginConfig, parsePluginConfig } from './load-plugin-config.js';
import { PluginConfigError } from './plugin-config-error.js';

/** A small reader in the plugins' style: a required `name`, an optional `labels` map. */
function readDemo(r: FieldReader): { name: string; labels: Record<string, string> } {
  return { name: r.requiredString('name') ?? '', labels: r.stringMap('labels') ?? {} };
}

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PluginConfigError);
    return (error as PluginConfigError).problems;
  }
  return expect.unreachable('configuration was accepted');
}

describe('parsePluginConfig', () => {
  it('returns what the reader read when there is no problem', () => {
    expect(parsePluginConfig('demo', 'name: a\nlabels: { team: x }\n', 'demo.yaml', readDemo)).toEqual({
      name: 'a',
      labels: { team: 'x' },
    });
  });

  const invalid: { name: string; yaml: string; problems: string[] }[] = [
    { name: 'an empty document', yaml: '', problems: ['name: Required value'] },
    {
      name: 'every field problem at once',
      yaml: 'nmae: a\nlabels: { cost-center: 4711 }\n',
      problems: [
        'name: Required value',
        'labels[cost-center]: Invalid value: 4711: must be a string (quote numbers and booleans in YAML)',
        'nmae: Unknown field: did you mean "name"?',
      ],
    },
    {
      name: 'a document that is a list, named as the document',
      yaml: '- a\n- b\n',
      problems: ['(document): Invalid value: []string{"a", "b"}: must be an object', 'name: Required value'],
    },
    {
      name: 'a YAML error, with its line',
      yaml: 'name: a\nname: b\n',
      problems: ['YAML syntax: Map keys must be unique (line 2)'],
    },
  ];
  for (const c of invalid) {
    it(`refuses ${c.name}`, () => {
      expect(problemsOf(() => parsePluginConfig('demo', c.yaml, 'demo.yaml', readDemo))).toEqual(c.problems);
    });
  }

  it('the message names the plugin and the file', () => {
    expect(() => parsePluginConfig('demo', 'name: [x]', '/etc/hookgate/demo.yaml', readDemo)).toThrow(
      'demo: invalid configuration in /etc/hookgate/demo.yaml:\n  - name: Invalid value: []string{"x"}: must be a string',
    );
  });
});

describe('loadPluginConfig', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'hookgate-sdk-config-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the file', async () => {
    const file = path.join(dir, 'demo.yaml');
    await writeFile(file, 'name: a\n');
    await expect(loadPluginConfig('demo', file, readDemo)).resolves.toEqual({ name: 'a', labels: {} });
  });

  it('names the file in field problems', async () => {
    const file = path.join(dir, 'demo.yaml');
    await writeFile(file, 'labels: []\n');
    await expect(loadPluginConfig('demo', file, readDemo)).rejects.toThrow(
      `demo: invalid configuration in ${file}:\n  - name: Required value\n  - labels: Invalid value: []string{}: must be an object`,
    );
  });

  it('an unreadable file is a PluginConfigError naming it', async () => {
    const file = path.join(dir, 'missing.yaml');
    const error = await loadPluginConfig('demo', file, readDemo).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PluginConfigError);
    expect((error as PluginConfigError).source).toBe(file);
    expect((error as PluginConfigError).problems).toEqual([expect.stringMatching(/^cannot read the file: ENOENT/)]);
  });
});
