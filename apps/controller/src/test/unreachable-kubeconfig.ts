/** A kubeconfig whose apiserver is port 9 (discard) on loopback: nothing listens, so every read is 'unavailable'. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function writeUnreachableKubeconfig(dir: string): Promise<string> {
  const file = path.join(dir, 'kubeconfig');
  await writeFile(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      'clusters: [{ name: none, cluster: { server: "http://127.0.0.1:9", insecure-skip-tls-verify: true } }]',
      'users: [{ name: none, user: {} }]',
      'contexts: [{ name: none, context: { cluster: none, user: none } }]',
      'current-context: none',
    ].join('\n'),
  );
  return file;
}
