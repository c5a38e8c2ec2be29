/** listenOnAddresses over real sockets: several addresses on one port, failures that close the rest. */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { addressesOf, listenOnAddresses } from './listen-on-addresses.js';

const open: (http.Server | net.Server)[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await new Promise((resolve) => server.close(resolve));
});

const createServer = () => {
  const server = http.createServer((_request, response) => response.end('ok'));
  open.push(server);
  return server;
};

async function holdPort(address: string, port = 0): Promise<number> {
  const blocker = net.createServer();
  open.push(blocker);
  await new Promise<void>((resolve, reject) => {
    blocker.once('error', reject);
    blocker.listen(port, address, resolve);
  });
  return (blocker.address() as AddressInfo).port;
}

async function canListen(address: string, port: number): Promise<boolean> {
  const probe = net.createServer();
  return new Promise<boolean>((resolve) => {
    probe.once('error', () => resolve(false));
    probe.listen(port, address, () => probe.close(() => resolve(true)));
  });
}

describe('listenOnAddresses', () => {
  it('listens on every address, all on the port the first one got', async () => {
    const bound = await listenOnAddresses(
      { host: 'loopbacks', addresses: ['127.0.0.1', '::1'], port: 0 },
      createServer,
    );
    expect(bound.addresses).toEqual(['127.0.0.1', '::1']);
    expect(bound.servers.map((s) => (s.address() as AddressInfo).port)).toEqual([bound.port, bound.port]);
    for (const host of ['127.0.0.1', '[::1]'])
      expect(await (await fetch(`http://${host}:${bound.port}/`)).text()).toBe('ok');
  });

  it('rejects naming host, address, port and code when a later address is taken, and closes the others', async () => {
    const port = await holdPort('::1');
    const failure = await listenOnAddresses(
      { host: 'loopbacks', addresses: ['127.0.0.1', '::1'], port },
      createServer,
    ).catch((e: unknown) => e);
    expect(failure).toMatchObject({
      code: 'EADDRINUSE',
      message: `cannot listen on loopbacks port ${port} (address ::1): EADDRINUSE`,
    });
    expect(await canListen('127.0.0.1', port)).toBe(true);
  });

  it('rejects naming host, port and code when the only address is taken', async () => {
    const port = await holdPort('127.0.0.1');
    await expect(
      listenOnAddresses({ host: '127.0.0.1', addresses: ['127.0.0.1'], port }, createServer),
    ).rejects.toMatchObject({ code: 'EADDRINUSE', message: `cannot listen on 127.0.0.1 port ${port}: EADDRINUSE` });
  });

  it('leaves out an address the machine does not have when another one listens', async () => {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): assigned to no machine.
    const bound = await listenOnAddresses(
      { host: 'name', addresses: ['192.0.2.1', '127.0.0.1'], port: 0 },
      createServer,
    );
    expect(bound.addresses).toEqual(['127.0.0.1']);
    await expect(
      listenOnAddresses({ host: '192.0.2.1', addresses: ['192.0.2.1'], port: 0 }, createServer),
    ).rejects.toMatchObject({ code: 'EADDRNOTAVAIL' });
  });

  it('resolves a name to all its addresses and an address to itself', async () => {
    expect(await addressesOf('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(await addressesOf('::1')).toEqual(['::1']);
    expect(await addressesOf('localhost')).toContain('127.0.0.1');
  });
});
