/** `hookgate check-config`: every problem, one per line, in the apiserver's wording; exit 1 if any. */
import { formatConfigError, loadConfiguration } from '@hookgate/config';
import { summarizeConfiguration } from '../format.js';

export async function checkConfigCommand(
  path: string,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const loaded = await loadConfiguration(path);
  if (!loaded.ok) {
    for (const e of loaded.error) err.write(`${formatConfigError(e)}\n`);
    err.write(`${path}: ${loaded.error.length} problem(s)\n`);
    return 1;
  }
  out.write(`${path}: configuration is valid: ${summarizeConfiguration(loaded.value)}\n`);
  return 0;
}
