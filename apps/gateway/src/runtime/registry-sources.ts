/** What the primary and the workers both need to merge a configuration with the registry. */
import type { LoadedConfiguration } from '@hookgate/config';
import type { RegistrySnapshot, StaticSources } from '../registry/index.js';

/** What a worker serves before the primary sent any registry snapshot, and with the registry disabled. */
export const NO_REGISTRATIONS: RegistrySnapshot = Object.freeze({ generation: 0, registrations: Object.freeze([]) });

/** The statically configured side of a configuration, which registrations must not collide with. */
export function staticSourcesOf(loaded: LoadedConfiguration): StaticSources {
  return {
    plugins: loaded.gateway.plugins.map((p) => ({ name: p.name, target: p.target })),
    configurations: loaded.webhookConfigurations,
  };
}
