import { servePlugin } from '@hookgate/plugin-sdk';
import { plugin } from './plugin.js';

// 127.0.0.1:7070 unless LISTEN says otherwise (unix:///path.sock works too; port 0 picks a free one).
await servePlugin(plugin, { listen: process.env.LISTEN ?? '127.0.0.1:7070', handleSignals: true });
