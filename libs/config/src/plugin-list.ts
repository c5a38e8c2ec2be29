/**
 * The `plugins` list as every Hookgate process that calls plugins reads it (the gateway's
 * GatewayConfiguration, the reconciliation controller's configuration): name, gRPC target and TLS,
 * in one wording, and the TLS files read into what @hookgate/plugin-client takes.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { duplicate, invalid, isDns1123Subdomain, required, type FieldReader } from '@hookgate/admission';
import type { PluginConfiguration, PluginTls, RegistryClientTls } from './gateway-configuration.js';

/** sun_path is 108 bytes including the terminating NUL. */
export const MAX_UNIX_SOCKET_PATH_BYTES = 107;

/** A path field, resolved against the configuration's directory; undefined when absent. */
export type PathReader = (r: FieldReader, name: string) => string | undefined;

export interface PluginListOptions {
  /** Read `stream` (AdmitStream on or off): the gateway's admission calls only. */
  readonly stream?: boolean;
  /** Read `command` (how `hookgate review` and `hookgate test` start the plugin): the gateway's list only. */
  readonly command?: boolean;
}

/** Reads `plugins[]` of `top`: unique DNS-subdomain names, checked targets, TLS files resolved. */
export function readPluginList(
  top: FieldReader,
  optionalPath: PathReader,
  options: PluginListOptions = {},
): PluginConfiguration[] {
  const seen = new Set<string>();
  const plugins: PluginConfiguration[] = [];
  top.items('plugins', (r) => {
    const name = r.requiredString('name');
    if (name !== undefined) {
      for (const msg of isDns1123Subdomain(name)) r.report(invalid(r.path.child('name'), name, msg));
      if (seen.has(name)) r.report(duplicate(r.path.child('name'), name));
      seen.add(name);
    }
    const target = r.requiredString('target');
    const problem = target === undefined ? undefined : targetProblem(target);
    if (problem !== undefined) r.report(invalid(r.path.child('target'), target, problem));
    const tls = r.has('tls') ? readPluginTls(r.object('tls'), optionalPath) : undefined;
    const stream = options.stream ? r.bool('stream') : undefined;
    const command = options.command ? readCommand(r) : undefined;
    r.finish();
    if (name !== undefined && target !== undefined)
      plugins.push({
        name,
        target,
        ...(tls ? { tls } : {}),
        ...(stream !== undefined ? { stream } : {}),
        ...(command ? { command } : {}),
      });
  });
  return plugins;
}

/** `command`: a program and its arguments, run without a shell; the program may not be empty. */
function readCommand(r: FieldReader): string[] | undefined {
  const command = r.stringList('command');
  if (command === undefined) return undefined;
  if (command.length === 0 || command[0] === '') {
    r.report(required(r.path.child('command').index(0), 'the program to run, then its arguments'));
    return undefined;
  }
  return command;
}

function readPluginTls(t: FieldReader, optionalPath: PathReader): PluginTls {
  const caFile = optionalPath(t, 'caFile');
  const certFile = optionalPath(t, 'certFile');
  const keyFile = optionalPath(t, 'keyFile');
  const serverName = t.string('serverName');
  if ((certFile === undefined) !== (keyFile === undefined)) {
    t.report(
      required(t.path.child(certFile === undefined ? 'certFile' : 'keyFile'), 'certFile and keyFile go together'),
    );
  }
  t.finish();
  return {
    ...(caFile ? { caFile } : {}),
    ...(certFile ? { certFile } : {}),
    ...(keyFile ? { keyFile } : {}),
    ...(serverName ? { serverName } : {}),
  };
}

/**
 * `clientTls` (the gateway's `registry.clientTls`, the controller's `registeredPlugins.clientTls`): the
 * client certificate presented to plugins registered with TLS; both files or neither.
 */
export function readClientTls(t: FieldReader, optionalPath: PathReader): RegistryClientTls | undefined {
  const certFile = optionalPath(t, 'certFile');
  const keyFile = optionalPath(t, 'keyFile');
  if (certFile === undefined || keyFile === undefined)
    t.report(
      required(
        t.path.child(certFile === undefined ? 'certFile' : 'keyFile'),
        'certFile and keyFile go together: the client certificate presented to plugins registered with TLS, and its key',
      ),
    );
  t.finish();
  return certFile === undefined || keyFile === undefined ? undefined : { certFile, keyFile };
}

/** The TLS files of a plugin, read, in the shape @hookgate/plugin-client's `tls` option takes. */
export function loadPluginTls(
  tls: PluginTls | undefined,
): { ca?: Buffer; cert?: Buffer; key?: Buffer; serverName?: string } | undefined {
  if (tls === undefined) return undefined;
  const read = (file: string | undefined) => (file === undefined ? undefined : readFileSync(file));
  const ca = read(tls.caFile);
  const cert = read(tls.certFile);
  const key = read(tls.keyFile);
  return {
    ...(ca ? { ca } : {}),
    ...(cert ? { cert } : {}),
    ...(key ? { key } : {}),
    ...(tls.serverName ? { serverName: tls.serverName } : {}),
  };
}

/** Why a plugin target is not `unix:///abs/path` or `host:port`, or undefined when it is fine. */
export function targetProblem(target: string): string | undefined {
  if (target.startsWith('unix:')) {
    if (!target.startsWith('unix:///')) return 'unix targets take an absolute path: unix:///run/hookgate/plugin.sock';
    const socket = target.slice('unix://'.length);
    if (Buffer.byteLength(socket) > MAX_UNIX_SOCKET_PATH_BYTES)
      return `socket path must be at most ${MAX_UNIX_SOCKET_PATH_BYTES} bytes long`;
    return undefined;
  }
  const m = /^(\[[^\]]+\]|[^:[\]/]+):(\d{1,5})$/.exec(target);
  if (!m) return 'must be unix:///absolute/path.sock or host:port ([::1]:port for IPv6)';
  const rawHost = m[1]!;
  const bracketed = rawHost.startsWith('[');
  const host = bracketed ? rawHost.slice(1, -1) : rawHost;
  if (bracketed ? isIP(host) !== 6 : !isHost(host))
    return `host ${JSON.stringify(host)} is not an IP address or DNS name`;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return 'port must be between 1 and 65535, inclusive';
  return undefined;
}

/** An IP address or a DNS name (any case), without scheme or port. */
export function isHost(host: string): boolean {
  return isIP(host) !== 0 || isDns1123Subdomain(host.toLowerCase()).length === 0;
}
