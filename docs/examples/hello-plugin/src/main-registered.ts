import { readFile } from 'node:fs/promises';
import { servePlugin } from '@hookgate/plugin-sdk';
import { plugin } from './plugin.js';

// The registration tells the gateway where to call, so any free port will do.
await servePlugin(plugin, {
  listen: '127.0.0.1:0',
  handleSignals: true,
  register: {
    registry: process.env.HOOKGATE_REGISTRY ?? 'unix:.hookgate/registry.sock',
    configurations: [await readFile('hookgate/webhooks.yaml', 'utf8')],
  },
});
