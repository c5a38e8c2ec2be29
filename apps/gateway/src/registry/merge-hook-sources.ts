/**
 * The hooks the gateway serves = the static configuration + every registration, as one HookSet
 * and one plugin table. Pure: the gateway calls it on every registry change (and every static
 * reload) and swaps the result in atomically.
 */
import { compileHooks, err, ok } from '@hookgate/admission';
import type { DefaultedConfiguration, HookSet, Result } from '@hookgate/admission';
import { STATIC_SOURCE_LABEL, findConflicts, registrationLabel, type HookSource } from './conflicts.js';
import type { PluginTarget, RegistrySnapshot, StaticSources } from './types.js';

export interface MergedHookSources {
  /** Static first, then registrations by plugin name; compileHooks orders them by name anyway. */
  readonly configurations: readonly DefaultedConfiguration[];
  readonly hooks: HookSet;
  /** Every plugin the hooks may call: static ones and registered ones. */
  readonly plugins: readonly PluginTarget[];
  /** The registry generation merged in. */
  readonly generation: number;
}

/**
 * Refuses (with every conflict) rather than letting one source shadow another; the store already
 * refuses such registrations, so a refusal here means a static reload that skipped replaceStatic().
 */
export function mergeHookSources(
  staticSources: StaticSources,
  registered: RegistrySnapshot,
): Result<MergedHookSources, string[]> {
  const problems: string[] = [];
  const plugins: PluginTarget[] = staticSources.plugins.map((p) => ({
    name: p.name,
    target: p.target,
    source: 'static',
  }));
  const sources: HookSource[] = [{ label: STATIC_SOURCE_LABEL, configurations: staticSources.configurations }];
  for (const registration of registered.registrations) {
    const source: HookSource = { label: registrationLabel(registration.plugin), configurations: registration.served };
    problems.push(...findConflicts(source, sources));
    if (plugins.some((p) => p.name === registration.plugin)) {
      problems.push(
        `plugin ${JSON.stringify(registration.plugin)} is both declared in the GatewayConfiguration and registered`,
      );
    }
    sources.push(source);
    plugins.push({
      name: registration.plugin,
      target: registration.target,
      source: 'registered',
      registeredAt: registration.registeredAt,
      ...(registration.tls === undefined ? {} : { tls: registration.tls }),
    });
  }
  if (problems.length > 0) return err(problems);
  const configurations = sources.flatMap((s) => s.configurations);
  return ok({ configurations, hooks: compileHooks(configurations), plugins, generation: registered.generation });
}
