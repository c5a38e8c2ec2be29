/**
 * @hookgate/plugin-sdk/testing: test helpers for plugins, against real sockets and processes.
 *
 *   const served = await serveOnUnixSocket(buildMyPlugin(options));
 *   const answer = await admit(served.client, admitMessage('my-hook.example.com', 'VALIDATING', request));
 *   await served.close();
 *
 *   const run = await runPluginMain({ pluginDir, config: 'rules: []\n' });   // src/main.ts, SIGTERM, cleanup
 *   expect(run).toMatchObject({ health: 'SERVING', exitCode: 0 });
 */
export { serveOnUnixSocket, type ServedPlugin } from './served-plugin.js';
export {
  admitMessage,
  admit,
  admitStream,
  reconcile,
  listHeldEffects,
  reconcileOrphan,
  parseJson,
} from './grpc-calls.js';
export { startPluginProcess, type PluginProcess, type PluginProcessOptions } from './plugin-process.js';
export { runPluginMain, type PluginMainOptions, type PluginMainRun } from './plugin-main.js';
export { exampleWebhookPlugins } from './webhook-example.js';
export { tempDir, type TempDir } from './temp-dir.js';
