import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bindAddress, parseListen, removeStaleSocket } from './listen.js';
import { tempDir } from './testing/temp-dir.js';

describe('parseListen', () => {
  const cases = [
    {
      name: 'absolute unix socket',
      listen: 'unix:///run/hookgate/p.sock',
      want: { kind: 'unix', path: '/run/hookgate/p.sock' },
      bind: 'unix:/run/hookgate/p.sock',
    },
    {
      name: 'relative unix socket',
      listen: 'unix:p.sock',
      want: { kind: 'unix', path: 'p.sock' },
      bind: 'unix:p.sock',
    },
    {
      name: 'IPv4 host and port',
      listen: '127.0.0.1:7001',
      want: { kind: 'tcp', host: '127.0.0.1', port: 7001 },
      bind: '127.0.0.1:7001',
    },
    { name: 'IPv6 host in brackets', listen: '[::1]:0', want: { kind: 'tcp', host: '::1', port: 0 }, bind: '[::1]:0' },
    {
      name: 'empty host means all interfaces',
      listen: ':7001',
      want: { kind: 'tcp', host: '', port: 7001 },
      bind: '0.0.0.0:7001',
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const parsed = parseListen(c.listen);
      expect(parsed).toEqual(c.want);
      expect(bindAddress(parsed)).toBe(c.bind);
    });
  }

  const invalid = [
    { name: 'no port', listen: 'localhost' },
    { name: 'port out of range', listen: '127.0.0.1:70000' },
    { name: 'a URL', listen: 'http://127.0.0.1:80' },
  ];
  for (const c of invalid) {
    it(`refuses ${c.name}`, () => expect(() => parseListen(c.listen)).toThrow(/neither unix|out of range/));
  }
});

describe('removeStaleSocket', () => {
  it('removes a socket file whose process died, keeps a live one', async () => {
    const tmp = await tempDir();
    const stale = path.join(tmp.dir, 'stale.sock');
    const live = path.join(tmp.dir, 'live.sock');
    // A process killed with SIGKILL leaves its socket file behind.
    const child = spawn(
      process.execPath,
      ['-e', `require('net').createServer().listen(${JSON.stringify(stale)}, () => console.log('up'))`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const server = net.createServer();
    try {
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      process.kill(child.pid!, 'SIGKILL');
      await new Promise<void>((resolve) => child.once('exit', () => resolve()));
      expect(existsSync(stale)).toBe(true);
      await removeStaleSocket(stale);
      expect(existsSync(stale)).toBe(false);

      await new Promise<void>((resolve) => server.listen(live, resolve));
      await expect(removeStaleSocket(live)).rejects.toThrow(`another process is serving on ${live}`);
      expect(existsSync(live)).toBe(true);
      await removeStaleSocket(path.join(tmp.dir, 'absent.sock'));
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, 'SIGKILL');
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await expect
        .poll(() => !existsSync(live), { timeout: 3_000, message: 'the live socket to be removed on close' })
        .toBe(true);
      await tmp.cleanup();
    }
  });
});
