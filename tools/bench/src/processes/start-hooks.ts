/**
 * Starts the hooks: SDK plugin processes (unix sockets) for the gateway, one per hook or one for
 * several, and one plain webhook process per hook (node:http or node:https on a loopback port) for
 * the baseline and the bridge. All in parallel.
 */
import path from 'node:path';
import { pluginName, slotName, type HookSlot } from '../hooks/bench-hooks.js';
import type { ChildSet } from './child-set.js';
import { isReadyLine } from './exit-with-parent.js';
import { benchScript, nodeArgs } from './node-scripts.js';

const READY_TIMEOUT_MS = 60_000;

export type { HookSlot };

/** One plugin process and the hook slots it serves. */
export interface PluginSpec {
  readonly name: string;
  readonly slots: readonly HookSlot[];
}

export interface RunningPlugin extends PluginSpec {
  /** `unix:///.../bench-m0.sock` */
  readonly target: string;
  readonly pid: number;
}

export interface RunningWebhook extends HookSlot {
  /** `http://127.0.0.1:port`, or `https://` with TLS */
  readonly origin: string;
  readonly pid: number;
}

/** Serving certificate files for https webhooks. */
export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
}

export function hookSlots(mutating: number, validating: number): HookSlot[] {
  return [
    ...Array.from({ length: mutating }, (_, index) => ({ phase: 'mutating' as const, index })),
    ...Array.from({ length: validating }, (_, index) => ({ phase: 'validating' as const, index })),
  ];
}

/** One plugin per slot, named after it (`bench-m0`). */
export const pluginPerSlot = (slots: readonly HookSlot[]): PluginSpec[] =>
  slots.map((slot) => ({ name: pluginName(slot.phase, slot.index), slots: [slot] }));

export function startPlugins(
  children: ChildSet,
  specs: readonly PluginSpec[],
  socketDir: string,
  execArgv: readonly string[] = [],
): Promise<RunningPlugin[]> {
  return Promise.all(
    specs.map(async (spec) => {
      const target = `unix://${path.join(socketDir, `${spec.name}.sock`)}`;
      const child = children.start(
        `plugin ${spec.name}`,
        process.execPath,
        nodeArgs(
          benchScript('processes/plugin-main.ts'),
          ['--name', spec.name, '--slots', spec.slots.map(slotName).join(','), '--listen', target],
          execArgv,
        ),
      );
      await child.readyLine(isReadyLine, READY_TIMEOUT_MS);
      return { ...spec, target, pid: child.pid };
    }),
  );
}

export function startWebhooks(
  children: ChildSet,
  slots: readonly HookSlot[],
  tls?: TlsFiles,
): Promise<RunningWebhook[]> {
  const tlsArgs = tls === undefined ? [] : ['--tls-cert', tls.certFile, '--tls-key', tls.keyFile];
  return Promise.all(
    slots.map(async (slot) => {
      const child = children.start(
        `${tls === undefined ? 'webhook' : 'https webhook'} ${pluginName(slot.phase, slot.index)}`,
        process.execPath,
        nodeArgs(benchScript('processes/webhook-main.ts'), [
          '--phase',
          slot.phase,
          '--index',
          String(slot.index),
          ...tlsArgs,
        ]),
      );
      const ready = await child.readyLine(isReadyLine, READY_TIMEOUT_MS);
      const scheme = tls === undefined ? 'http' : 'https';
      return { ...slot, origin: `${scheme}://127.0.0.1:${ready.port ?? 0}`, pid: child.pid };
    }),
  );
}
