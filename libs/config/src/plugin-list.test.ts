import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FieldReader, formatFieldError } from '@hookgate/admission';
import { loadPluginTls, readPluginList, type PathReader } from './plugin-list.js';

const inDir =
  (dir: string): PathReader =>
  (r, name) => {
    const v = r.string(name);
    return v === undefined ? undefined : join(dir, v);
  };

function read(document: unknown, options?: { stream?: boolean }) {
  const top = FieldReader.of(document);
  const plugins = readPluginList(top, inDir('/etc/hookgate'), options);
  top.finish();
  return { plugins, errors: top.errors().map(formatFieldError) };
}

describe('readPluginList', () => {
  it('reads name, target and TLS with serverName, paths resolved', () => {
    expect(
      read({
        plugins: [
          { name: 'ledger', target: '10.0.0.7:7001', tls: { caFile: 'ca.pem', serverName: 'ledger.internal' } },
        ],
      }),
    ).toEqual({
      plugins: [
        {
          name: 'ledger',
          target: '10.0.0.7:7001',
          tls: { caFile: '/etc/hookgate/ca.pem', serverName: 'ledger.internal' },
        },
      ],
      errors: [],
    });
  });

  it('reads stream only when asked (the gateway); elsewhere it is an unknown field', () => {
    const document = { plugins: [{ name: 'a', target: 'unix:///run/a.sock', stream: false }] };
    expect(read(document, { stream: true }).plugins).toEqual([
      { name: 'a', target: 'unix:///run/a.sock', stream: false },
    ]);
    expect(read(document).errors).toEqual(['plugins[0].stream: Unknown field']);
  });

  it('names every problem: duplicate name, bad target, a key without its certificate', () => {
    expect(
      read({
        plugins: [
          { name: 'a', target: 'unix://relative.sock' },
          { name: 'a', target: 'h:1', tls: { keyFile: 'k.pem' } },
        ],
      }).errors,
    ).toEqual([
      'plugins[0].target: Invalid value: "unix://relative.sock": unix targets take an absolute path: unix:///run/hookgate/plugin.sock',
      'plugins[1].name: Duplicate value: "a"',
      'plugins[1].tls.certFile: Required value: certFile and keyFile go together',
    ]);
  });
});

describe('loadPluginTls', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hookgate-plugin-tls-'));
    await writeFile(join(dir, 'ca.pem'), 'CA');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('reads the files and keeps serverName; nothing without tls', () => {
    expect(loadPluginTls({ caFile: join(dir, 'ca.pem'), serverName: 'ledger.internal' })).toEqual({
      ca: Buffer.from('CA'),
      serverName: 'ledger.internal',
    });
    expect(loadPluginTls(undefined)).toBeUndefined();
  });
});
