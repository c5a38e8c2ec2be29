/**
 * The fake apiserver as a process of its own, for benchmarks and manual runs:
 *   node --import tsx test/src/fake-apiserver-main.ts
 * prints `listening <url> <kubeconfig>` once it serves; SIGTERM or SIGINT closes it.
 */
import { FakeApiServer } from './fake-apiserver.js';

const api = await FakeApiServer.start();
const kubeconfig = await api.writeKubeconfig();
process.stdout.write(`listening ${api.url} ${kubeconfig}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void api.close().then(() => process.exit(0)));
}
