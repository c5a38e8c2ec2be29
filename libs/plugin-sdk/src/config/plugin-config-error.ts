/** Every problem found in one plugin configuration file, thrown together so an operator fixes them in one pass. */
export class PluginConfigError extends Error {
  readonly code = 'HG_ERR_PLUGIN_CONFIG_INVALID';
  constructor(
    readonly plugin: string,
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`${plugin}: invalid configuration in ${source}:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'PluginConfigError';
  }
}
