/** The shipped examples stay true: webhooks.yaml is a valid configuration for this plugin, config.example.yaml loads. */
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { exampleWebhookPlugins } from '@hookgate/plugin-sdk/testing';
import { loadLedgerConfig } from './config.js';
import { DEFAULT_HOOK, PLUGIN_NAME } from './plugin.js';

const file = (name: string): string => fileURLToPath(new URL(`../${name}`, import.meta.url));

describe('ledger examples', () => {
  it('webhooks.yaml is a valid webhook configuration whose hooks this plugin serves', async () => {
    expect(await exampleWebhookPlugins(file('webhooks.yaml'), PLUGIN_NAME)).toEqual([[DEFAULT_HOOK, PLUGIN_NAME]]);
  });

  it('config.example.yaml loads', async () => {
    await expect(loadLedgerConfig(file('config.example.yaml'))).resolves.toBeDefined();
  });
});
