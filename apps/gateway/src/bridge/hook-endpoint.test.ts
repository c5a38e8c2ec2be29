import { describe, expect, it } from 'vitest';
import { isLoopbackHost, resolveHookEndpoint, serviceEndpoint } from './hook-endpoint.js';

describe('resolveHookEndpoint', () => {
  const cases = [
    {
      name: 'https url keeps its path',
      target: { kind: 'url' as const, url: 'https://hooks.example.com:8443/validate/pods' },
      expected: {
        ok: true,
        origin: 'https://hooks.example.com:8443',
        path: '/validate/pods',
        servername: 'hooks.example.com',
        url: 'https://hooks.example.com:8443/validate/pods',
        hostPort: 'hooks.example.com:8443',
      },
    },
    {
      name: 'https url without path posts to /',
      target: { kind: 'url' as const, url: 'https://hooks.example.com' },
      expected: {
        ok: true,
        origin: 'https://hooks.example.com',
        path: '/',
        servername: 'hooks.example.com',
        url: 'https://hooks.example.com/',
        hostPort: 'hooks.example.com:443',
      },
    },
    {
      name: 'http to 127.0.0.1 is the loopback extension',
      target: { kind: 'url' as const, url: 'http://127.0.0.1:9000/allow' },
      expected: {
        ok: true,
        origin: 'http://127.0.0.1:9000',
        path: '/allow',
        servername: '127.0.0.1',
        url: 'http://127.0.0.1:9000/allow',
        hostPort: '127.0.0.1:9000',
      },
    },
    {
      name: 'http to [::1] is allowed',
      target: { kind: 'url' as const, url: 'http://[::1]:9000/allow' },
      expected: {
        ok: true,
        origin: 'http://[::1]:9000',
        path: '/allow',
        servername: '::1',
        url: 'http://[::1]:9000/allow',
        hostPort: '[::1]:9000',
      },
    },
    {
      name: 'service reference resolves like the apiserver',
      target: {
        kind: 'service' as const,
        namespace: 'cert-manager',
        name: 'cert-manager-webhook',
        path: '/mutate',
        port: 10250,
      },
      expected: {
        ok: true,
        origin: 'https://cert-manager-webhook.cert-manager.svc:10250',
        path: '/mutate',
        servername: 'cert-manager-webhook.cert-manager.svc',
        url: 'https://cert-manager-webhook.cert-manager.svc:10250/mutate',
        hostPort: 'cert-manager-webhook.cert-manager.svc:10250',
      },
    },
    {
      name: 'service reference with default port and path',
      target: { kind: 'service' as const, namespace: 'ns', name: 'svc', path: '/', port: 443 },
      expected: {
        ok: true,
        origin: 'https://svc.ns.svc',
        path: '/',
        servername: 'svc.ns.svc',
        url: 'https://svc.ns.svc:443/',
        hostPort: 'svc.ns.svc:443',
      },
    },
    {
      name: 'an explicit default port stays in the printed url, as Go prints it',
      target: { kind: 'url' as const, url: 'https://127.0.0.1:443/validate' },
      expected: {
        ok: true,
        origin: 'https://127.0.0.1',
        path: '/validate',
        servername: '127.0.0.1',
        url: 'https://127.0.0.1:443/validate',
        hostPort: '127.0.0.1:443',
      },
    },
    {
      name: 'plain http to a remote host is refused',
      target: { kind: 'url' as const, url: 'http://hooks.example.com/validate' },
      expected: { ok: false, error: 'plain http is allowed only to loopback addresses, not "hooks.example.com"' },
    },
    {
      name: 'empty url (no url, service or plugin) is a client error',
      target: { kind: 'url' as const, url: '' },
      expected: { ok: false, error: 'invalid url ""' },
    },
    {
      name: 'other schemes are refused',
      target: { kind: 'url' as const, url: 'ftp://127.0.0.1/x' },
      expected: { ok: false, error: 'unsupported url scheme "ftp:" in "ftp://127.0.0.1/x"' },
    },
  ];
  it.each(cases)('$name', ({ target, expected }) => {
    const result = resolveHookEndpoint(target);
    if (expected.ok) {
      expect(result.ok).toBe(true);
      if (result.ok) {
        const { origin, path, servername, url, hostPort } = result.endpoint;
        expect({ origin, path, servername, url, hostPort }).toEqual({
          origin: expected.origin,
          path: expected.path,
          servername: expected.servername,
          url: expected.url,
          hostPort: expected.hostPort,
        });
      }
    } else {
      expect(result).toEqual({ ok: false, error: expected.error });
    }
  });
});

describe('isLoopbackHost', () => {
  const cases = [
    { name: 'localhost', host: 'localhost', loopback: true },
    { name: '127.0.0.1', host: '127.0.0.1', loopback: true },
    { name: 'any 127/8 address', host: '127.10.20.30', loopback: true },
    { name: 'bracketed ::1', host: '[::1]', loopback: true },
    { name: 'IPv4-mapped loopback', host: '::ffff:127.0.0.1', loopback: true },
    { name: 'a private address is not loopback', host: '10.0.0.1', loopback: false },
    { name: 'a name that starts with 127 is not loopback', host: '127.0.0.1.example.com', loopback: false },
    { name: 'out-of-range octet', host: '127.0.0.256', loopback: false },
  ];
  it.each(cases)('$name', ({ host, loopback }) => expect(isLoopbackHost(host)).toBe(loopback));
});

describe('serviceEndpoint', () => {
  const target = {
    kind: 'service' as const,
    namespace: 'cert-manager',
    name: 'cert-manager-webhook',
    path: '/mutate',
    port: 443,
    caBundle: 'Q0E=',
  };
  it('dials the resolved address, keeps the service URL in errors and verifies <name>.<namespace>.svc', () => {
    expect(serviceEndpoint(target, { host: '10.96.12.7', port: 443 })).toEqual({
      ok: true,
      endpoint: {
        origin: 'https://10.96.12.7:443',
        path: '/mutate',
        url: 'https://cert-manager-webhook.cert-manager.svc:443/mutate',
        hostPort: '10.96.12.7:443',
        secure: true,
        servername: 'cert-manager-webhook.cert-manager.svc',
        caBundle: 'Q0E=',
      },
    });
  });
  it('puts an IPv6 ClusterIP in brackets', () => {
    const result = serviceEndpoint(target, { host: 'fd00:10:96::7', port: 8443 });
    expect(result.ok && result.endpoint.origin).toBe('https://[fd00:10:96::7]:8443');
  });
});
