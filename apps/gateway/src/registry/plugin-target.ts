/** The `target` a plugin registers: the same two forms as a static plugin's target. */
import { isIP } from 'node:net';

/** sockaddr_un.sun_path is 108 bytes on Linux, including the terminating NUL. */
const MAX_UNIX_SOCKET_PATH_BYTES = 107;
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** Why `target` is not `unix:///absolute/path.sock` or `host:port`; undefined when it is fine. */
export function pluginTargetProblem(target: string): string | undefined {
  if (target.startsWith('unix:')) {
    if (!target.startsWith('unix:///')) return 'unix targets take an absolute path: unix:///run/hookgate/plugin.sock';
    const socket = target.slice('unix://'.length);
    if (Buffer.byteLength(socket) > MAX_UNIX_SOCKET_PATH_BYTES) return `socket path must be at most ${MAX_UNIX_SOCKET_PATH_BYTES} bytes long`;
    return undefined;
  }
  const m = /^(\[[^\]]+\]|[^:[\]/]+):(\d{1,5})$/.exec(target);
  if (m === null) return 'must be unix:///absolute/path.sock or host:port ([::1]:port for IPv6)';
  const rawHost = m[1]!;
  const bracketed = rawHost.startsWith('[');
  const host = bracketed ? rawHost.slice(1, -1) : rawHost;
  const hostOk = bracketed ? isIP(host) === 6 : isIP(host) === 4 || HOST_NAME.test(host);
  if (!hostOk) return `host ${JSON.stringify(host)} is not an IP address or DNS name`;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return 'port must be between 1 and 65535, inclusive';
  return undefined;
}
