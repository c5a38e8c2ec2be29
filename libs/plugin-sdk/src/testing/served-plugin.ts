/**
 * Serves a plugin through the SDK on a real unix socket in a temp dir, with a plain gRPC client
 * built from @hookgate/proto, as the gateway talks to it.
 */
import * as grpc from '@grpc/grpc-js';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { newAdmissionPluginClient } from '@hookgate/proto';
import type { AdmissionPluginClient } from '@hookgate/proto';
import { servePlugin, type PluginServer } from '../serve.js';
import type { Plugin } from '../types.js';

export interface ServedPlugin {
  readonly server: PluginServer;
  readonly client: AdmissionPluginClient;
  /** Closes the client, shuts the server down and removes the temp dir. */
  close(): Promise<void>;
}

export async function serveOnUnixSocket(plugin: Plugin): Promise<ServedPlugin> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `hookgate-${plugin.name}-`));
  const server = await servePlugin(plugin, { listen: `unix://${path.join(dir, 'plugin.sock')}`, logger: false });
  const client = newAdmissionPluginClient(server.target, grpc.credentials.createInsecure());
  return {
    server,
    client,
    async close() {
      client.close();
      await server.shutdown(1_000);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
