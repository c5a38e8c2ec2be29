import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reloadOnSighup, watchConfiguration } from './watch-configuration.js';
import type { ConfigurationWatch } from './watch-configuration.js';

let dir: string;
const watches: ConfigurationWatch[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookgate-watch-'));
  await writeFile(join(dir, 'hookgate.yaml'), 'a: 1\n');
});
afterEach(async () => {
  for (const w of watches.splice(0)) w.close();
  await rm(dir, { recursive: true, force: true });
});

/** `changed` resolves on the first onChange; the test's own timeout bounds the wait. */
async function watchOnce(path: string): Promise<{ changed: Promise<void> }> {
  let notify: () => void = () => undefined;
  const changed = new Promise<void>((resolve) => (notify = resolve));
  watches.push(await watchConfiguration(path, () => notify(), { debounceMs: 20 }));
  return { changed };
}

describe('watchConfiguration', () => {
  const cases = [
    {
      name: 'a file edited in place',
      path: () => join(dir, 'hookgate.yaml'),
      change: () => writeFile(join(dir, 'hookgate.yaml'), 'a: 2\n'),
    },
    {
      name: 'a file replaced by rename, as editors do',
      path: () => join(dir, 'hookgate.yaml'),
      change: async () => {
        await writeFile(join(dir, '.hookgate.yaml.swp'), 'a: 3\n');
        await rename(join(dir, '.hookgate.yaml.swp'), join(dir, 'hookgate.yaml'));
      },
    },
    {
      name: 'a file added to a directory',
      path: () => dir,
      change: () => writeFile(join(dir, 'hooks.yaml'), 'b: 1\n'),
    },
    {
      name: 'a ConfigMap-style ..data swap next to a file',
      path: () => join(dir, 'hookgate.yaml'),
      change: async () => {
        await writeFile(join(dir, '..data_tmp'), 'x');
        await rename(join(dir, '..data_tmp'), join(dir, '..data'));
      },
    },
  ];
  for (const c of cases) {
    it(`notices ${c.name}`, async () => {
      const { changed } = await watchOnce(c.path());
      await c.change();
      await expect(changed).resolves.toBeUndefined();
    });
  }

  it('fails clearly for a path that does not exist', async () => {
    await expect(watchConfiguration(join(dir, 'missing.yaml'), () => undefined)).rejects.toThrow(/ENOENT/);
  });
});

describe('reloadOnSighup', () => {
  it('calls reload on SIGHUP until removed', async () => {
    let calls = 0;
    const remove = reloadOnSighup(() => calls++);
    const received = new Promise<void>((resolve) => process.once('SIGHUP', () => resolve()));
    process.kill(process.pid, 'SIGHUP');
    await received;
    remove();
    expect(calls).toBe(1);
    expect(process.listeners('SIGHUP')).toHaveLength(0);
  });
});
