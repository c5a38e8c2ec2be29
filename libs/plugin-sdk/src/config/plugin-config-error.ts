import { HG_ERR_PLUGIN_CONFIG_INVALID } from '@hookgate/errors';

/** Every problem found in one plugin configuration file, thrown together so an operator fixes them in one pass. */
export class PluginConfigError extends HG_ERR_PLUGIN_CONFIG_INVALID {
  override readonly name = 'PluginConfigError';
  constructor(
    readonly plugin: string,
    readonly source: string,
    readonly problems: string[],
  ) {
    super(plugin, source, problems.map((p) => `  - ${p}`).join('\n'));
  }
}
