/**
 * Follows the plugins registered at run time: every `pollMs` it reads what the gateways publish in
 * Redis (`readRegisteredPlugins` of @hookgate/queue: the union of every gateway's set) and starts
 * serving a plugin that appeared, serves afresh one whose target, TLS or registration changed, and stops
 * one no gateway publishes any more. Plugins in the controller's own configuration win over a
 * published one of the same name (a warn line when the targets differ).
 *
 * A published plugin at a network address without TLS is refused (one error line; its jobs wait):
 * the gateway's Registry takes no such registration, so only an older gateway, or something else
 * writing the keys, publishes one, and Reconcile carries side-effect payloads.
 *
 * A read that fails keeps what is served (the jobs of a plugin not served wait in its queue, they
 * do not fail); the next poll tries again.
 */
import { mayCallInPlaintext } from '@hookgate/config';
import type { Logger } from '@hookgate/observability';
import {
  samePluginTls,
  unionOfRegisteredPlugins,
  type RegisteredPlugin,
  type RegisteredPluginsRead,
} from '@hookgate/queue';
import type { ControllerPlugin } from './config.js';

export interface RegisteredPluginsWatcherOptions {
  /** One read of every gateway's set (bounded in time by the caller). */
  readonly read: () => Promise<RegisteredPluginsRead>;
  readonly staticPlugins: readonly ControllerPlugin[];
  readonly pollMs: number;
  readonly logger: Logger;
  /** Serves a registered plugin's queue (worker, resync scheduler, client). */
  readonly start: (plugin: RegisteredPlugin) => Promise<void>;
  /** Stops serving it; running jobs are handed back as at shutdown. */
  readonly stop: (name: string) => Promise<void>;
}

export interface RegisteredPluginsWatcher {
  /** Names of the registered plugins served now. */
  served(): readonly string[];
  /** Stops polling (served plugins are left for the caller to stop). */
  close(): Promise<void>;
}

export async function watchRegisteredPlugins(
  options: RegisteredPluginsWatcherOptions,
): Promise<RegisteredPluginsWatcher> {
  const { logger } = options;
  const staticTargets = new Map(options.staticPlugins.map((p) => [p.name, p.target]));
  const served = new Map<string, RegisteredPlugin>();
  // Said once per distinct situation, not once per poll.
  let readFailing = false;
  let lastProblems = '';
  let lastConflicts = '';
  const shadowed = new Map<string, string>();
  const failedStarts = new Map<string, string>();
  const refusedPlaintext = new Map<string, string>();

  const apply = async (read: RegisteredPluginsRead): Promise<void> => {
    const problems = read.problems.join('\n');
    if (problems !== '' && problems !== lastProblems) {
      logger.warn(
        { problems: read.problems },
        'a gateway published a registered-plugin set this controller cannot read: skipped (a gateway of another version, or a key written by something else)',
      );
    }
    lastProblems = problems;
    const union = unionOfRegisteredPlugins(read.sets);
    const conflicts = JSON.stringify(union.conflicts);
    if (union.conflicts.length > 0 && conflicts !== lastConflicts) {
      logger.warn(
        { conflicts: union.conflicts },
        'gateways publish one plugin name with different targets: the most recent registration is served; register each plugin under one target',
      );
    }
    lastConflicts = conflicts;

    const wanted = new Map<string, RegisteredPlugin>();
    for (const [name, plugin] of union.plugins) {
      const configured = staticTargets.get(name);
      if (configured === undefined) {
        if (plugin.tls === undefined && !mayCallInPlaintext(plugin.target)) {
          if (refusedPlaintext.get(name) !== plugin.target) {
            logger.error(
              { plugin: name, target: plugin.target, gateways: plugin.gateways },
              `not serving registered plugin ${name}: it is published without TLS at a network address, and Reconcile would carry side effects in plaintext; its jobs wait in its queue. Register it again through a current gateway with its CA (tls.ca in the SDK), or on a unix socket or loopback address`,
            );
          }
          refusedPlaintext.set(name, plugin.target);
          continue;
        }
        refusedPlaintext.delete(name);
        wanted.set(name, plugin);
        continue;
      }
      if (configured !== plugin.target && shadowed.get(name) !== plugin.target) {
        logger.warn(
          { plugin: name, configuredTarget: configured, registeredTarget: plugin.target, gateways: plugin.gateways },
          `plugin ${name} is in this controller's configuration and registered at run time with another target: the configured target is used; remove one of them`,
        );
      }
      shadowed.set(name, plugin.target);
    }
    for (const name of [...shadowed.keys()]) if (!union.plugins.has(name)) shadowed.delete(name);

    for (const [name, current] of served) {
      const next = wanted.get(name);
      if (
        next !== undefined &&
        next.target === current.target &&
        next.registeredAt === current.registeredAt &&
        samePluginTls(next.tls, current.tls)
      )
        continue;
      served.delete(name);
      await options.stop(name);
      if (next === undefined) {
        logger.info(
          { plugin: name, target: current.target },
          `stopped serving registered plugin ${name}: no gateway publishes it any more (deregistered, or its gateway stopped); its jobs wait in its queue`,
        );
      }
    }
    for (const [name, plugin] of wanted) {
      if (served.has(name)) continue;
      try {
        await options.start(plugin);
      } catch (error) {
        if (failedStarts.get(name) !== plugin.target) {
          logger.error(
            { plugin: name, target: plugin.target, err: error instanceof Error ? error.message : String(error) },
            `cannot serve registered plugin ${name}: its jobs wait in its queue; tried again at every poll`,
          );
        }
        failedStarts.set(name, plugin.target);
        continue;
      }
      failedStarts.delete(name);
      served.set(name, plugin);
      logger.info(
        {
          plugin: name,
          target: plugin.target,
          tls: plugin.tls !== undefined,
          gateways: plugin.gateways,
          registeredAt: plugin.registeredAt,
        },
        `serving registered plugin ${name}: reconciling its queue`,
      );
    }
  };

  const poll = async (): Promise<void> => {
    let read: RegisteredPluginsRead;
    try {
      read = await options.read();
    } catch (error) {
      if (!readFailing) {
        logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'cannot read the registered plugins from Redis: the ones served stay served; retrying',
        );
      }
      readFailing = true;
      return;
    }
    if (readFailing) logger.info({}, 'registered plugins read from Redis again');
    readFailing = false;
    await apply(read);
  };

  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = poll();
  await running;
  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => {
      running = poll().finally(schedule);
    }, options.pollMs);
  };
  schedule();

  return {
    served: () => [...served.keys()],
    async close() {
      closed = true;
      clearTimeout(timer);
      await running;
    },
  };
}
