/** `hookgate check-config`: every problem, one per line, in the apiserver's wording; exit 1 if any. */
import { formatConfigError, loadConfiguration } from '@hookgate/config';
import { checkServiceReferences } from '@hookgate/gateway';
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
  // Warnings, not errors: the Service may simply not exist yet where check-config runs.
  for (const w of await checkServiceReferences(loaded.value))
    err.write(`warning: ${w.configuration} webhook "${w.hook}": service ${w.service}: ${w.message}\n`);
  return 0;
}
