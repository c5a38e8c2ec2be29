/** Channel credentials for a plugin target: insecure (unix sockets, loopback) or TLS. */
import * as grpc from '@grpc/grpc-js';

export interface PluginTls {
  /** PEM CA bundle that signed the plugin's certificate (system roots when absent). */
  readonly ca?: string | Buffer;
  /** Client certificate and key, when the plugin requires one. */
  readonly cert?: string | Buffer;
  readonly key?: string | Buffer;
  /** Name to verify in the plugin's certificate when it differs from the target host. */
  readonly serverName?: string;
}

export function channelCredentials(tls: PluginTls | undefined): grpc.ChannelCredentials {
  if (tls === undefined) return grpc.credentials.createInsecure();
  if ((tls.cert === undefined) !== (tls.key === undefined)) {
    throw new Error('plugin TLS: cert and key go together (a client certificate needs its key)');
  }
  return grpc.credentials.createSsl(
    tls.ca === undefined ? null : Buffer.from(tls.ca),
    tls.key === undefined ? null : Buffer.from(tls.key),
    tls.cert === undefined ? null : Buffer.from(tls.cert),
  );
}

export function tlsChannelOptions(tls: PluginTls | undefined): grpc.ChannelOptions {
  return tls?.serverName === undefined
    ? {}
    : { 'grpc.ssl_target_name_override': tls.serverName, 'grpc.default_authority': tls.serverName };
}
