/**
 * Name conflicts between hook sources (the static configuration, each plugin's registration).
 * Configuration names and webhook names must be unique across sources: ordering, metrics, audit
 * keys and `<configuration>/<webhook>` in logs would otherwise be ambiguous, and one source could
 * shadow another's hook. A conflict is refused with both sources named, never resolved silently.
 */
import type { DefaultedConfiguration } from '@hookgate/admission';

export interface HookSource {
  /** How messages name it: `the static configuration`, `the registration of plugin "x"`. */
  readonly label: string;
  readonly configurations: readonly DefaultedConfiguration[];
}

export const STATIC_SOURCE_LABEL = 'the static configuration';
export const registrationLabel = (plugin: string): string => `the registration of plugin ${JSON.stringify(plugin)}`;

/** Every conflict between `candidate` and any of `others`, one complete sentence each. */
export function findConflicts(candidate: HookSource, others: readonly HookSource[]): string[] {
  const configurationOwners = new Map<string, { source: HookSource; configuration: DefaultedConfiguration }>();
  const webhookOwners = new Map<string, { source: HookSource; configuration: DefaultedConfiguration }>();
  for (const source of others) {
    for (const configuration of source.configurations) {
      if (!configurationOwners.has(configuration.name))
        configurationOwners.set(configuration.name, { source, configuration });
      for (const webhook of configuration.webhooks) {
        if (!webhookOwners.has(webhook.name)) webhookOwners.set(webhook.name, { source, configuration });
      }
    }
  }

  const conflicts: string[] = [];
  const reported = new Set<string>();
  for (const configuration of candidate.configurations) {
    const owner = configurationOwners.get(configuration.name);
    if (owner !== undefined && !reported.has(`c:${configuration.name}`)) {
      reported.add(`c:${configuration.name}`);
      conflicts.push(
        `${describe(configuration)} in ${candidate.label} has the same name as ${describe(owner.configuration)} in ${owner.source.label}: ` +
          'configuration names must be unique across the static configuration and registrations; rename one of them',
      );
    }
    for (const webhook of configuration.webhooks) {
      const webhookOwner = webhookOwners.get(webhook.name);
      if (webhookOwner === undefined || reported.has(`w:${webhook.name}`)) continue;
      reported.add(`w:${webhook.name}`);
      conflicts.push(
        `webhook ${JSON.stringify(webhook.name)} of ${describe(configuration)} in ${candidate.label} has the same name as a webhook of ` +
          `${describe(webhookOwner.configuration)} in ${webhookOwner.source.label}: webhook names must be unique across the static ` +
          'configuration and registrations; rename one of them',
      );
    }
  }
  return conflicts;
}

const describe = (configuration: DefaultedConfiguration): string =>
  `${configuration.kind} ${JSON.stringify(configuration.name)}`;
