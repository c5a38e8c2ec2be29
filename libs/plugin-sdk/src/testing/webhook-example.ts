/** A plugin's shipped webhooks.yaml, checked the way the gateway loads it. */
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { formatConfigurationErrors, parseWebhookConfiguration } from '@hookgate/admission';

/**
 * The `[webhook name, clientConfig.plugin]` pairs of a webhook configuration file that the
 * gateway would accept with `plugin` known; throws the gateway's own error text otherwise.
 */
export async function exampleWebhookPlugins(file: string, plugin: string): Promise<[string, string][]> {
  const document: unknown = parse(await readFile(file, 'utf8'));
  const parsed = parseWebhookConfiguration(document, { knownPlugins: new Set([plugin]) });
  if (!parsed.ok) throw new Error(`${file}: ${formatConfigurationErrors(document, parsed.error)}`);
  const webhooks = (document as { webhooks: { name: string; clientConfig: { plugin: string } }[] }).webhooks;
  return webhooks.map((w) => [w.name, w.clientConfig.plugin]);
}
