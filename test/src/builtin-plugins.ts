/**
 * The four built-in plugins (apps/plugins/*) as an operator runs them: each process from its
 * src/main.ts with a configuration file, and the gateway configuration made of the shipped
 * webhooks.yaml files plus a GatewayConfiguration declaring the plugins.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gatewayConfigYaml, type GatewayConfigOptions } from './gateway-config.js';
import { REPO_ROOT } from '@hookgate/devtools';

export const BUILTIN_PLUGINS = ['pod-defaults', 'required-labels', 'immutable-fields', 'ledger'] as const;
export type BuiltinPlugin = (typeof BUILTIN_PLUGINS)[number];

export const pluginFile = (plugin: BuiltinPlugin, file: string): string =>
  join(REPO_ROOT, 'apps/plugins', plugin, file);

/** GatewayConfiguration + every plugin's webhooks.yaml, as one multi-document YAML file. */
export async function builtinGatewayConfig(
  targets: Readonly<Record<BuiltinPlugin, string>>,
  options: Omit<GatewayConfigOptions, 'plugins'> = {},
): Promise<string> {
  const gateway = gatewayConfigYaml([], {
    ...options,
    plugins: BUILTIN_PLUGINS.map((name) => ({ name, target: targets[name] })),
  });
  const webhooks = await Promise.all(
    BUILTIN_PLUGINS.map((name) => readFile(pluginFile(name, 'webhooks.yaml'), 'utf8')),
  );
  return [gateway, ...webhooks].join('\n---\n');
}
