/** Refusals of the registry, worded once: a headline naming the plugin, then one problem per line. */
import type { RegistryRefusal } from './types.js';

export function refusal(kind: RegistryRefusal['kind'], headline: string, problems: readonly string[]): RegistryRefusal {
  const message = problems.length === 0 ? headline : `${headline}:\n${problems.map((p) => `  - ${p}`).join('\n')}`;
  return { kind, problems: [...problems], message };
}

export function invalidRegistration(plugin: string, problems: readonly string[]): RegistryRefusal {
  const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
  return refusal('invalid', `registration of plugin ${JSON.stringify(plugin)} refused, ${count}`, problems);
}

export function conflictingRegistration(plugin: string, conflicts: readonly string[]): RegistryRefusal {
  return refusal(
    'conflict',
    `registration of plugin ${JSON.stringify(plugin)} refused: it conflicts with hooks already served`,
    conflicts,
  );
}

export function staticPlugin(plugin: string, target: string, action: 'register' | 'deregister'): RegistryRefusal {
  const what =
    action === 'register'
      ? 'a registration cannot take it over; register under another plugin name, or remove it from the GatewayConfiguration first'
      : 'it is not a registration; remove it from the GatewayConfiguration to stop serving it';
  const problem = `plugin ${JSON.stringify(plugin)} is declared under plugins in the GatewayConfiguration (target ${target}): ${what}`;
  return refusal(
    'static',
    `${action === 'register' ? 'registration' : 'deregistration'} of plugin ${JSON.stringify(plugin)} refused`,
    [problem],
  );
}

export function unknownPlugin(plugin: string, registered: readonly string[]): RegistryRefusal {
  const known =
    registered.length === 0
      ? 'no plugin is registered'
      : `registered plugins: ${registered.map((p) => JSON.stringify(p)).join(', ')}`;
  return refusal('not-found', `deregistration of plugin ${JSON.stringify(plugin)} refused`, [
    `plugin ${JSON.stringify(plugin)} is not registered (${known})`,
  ]);
}

export function outsideRegistration(plugin: string, problems: readonly string[]): RegistryRefusal {
  return refusal(
    'outside-registration',
    `registration of plugin ${JSON.stringify(plugin)} refused: the apiserver would never send some of its hooks' requests to the gateway`,
    problems,
  );
}
