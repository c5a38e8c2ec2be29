/**
 * Starts the hooks: one SDK plugin process per hook (unix socket) for the gateway, and one plain
 * webhook process per hook (node:http on a loopback port) for the baseline. All in parallel.
 */
import path from 'node:path';
import { pluginName, type HookPhase } from '../hooks/bench-hooks.js';
import type { ChildSet } from './child-set.js';
import { isReadyLine } from './exit-with-parent.js';
import { benchScript, nodeArgs } from './node-scripts.js';

const READY_TIMEOUT_MS = 60_000;

export interface HookSlot {
  readonly phase: HookPhase;
  readonly index: number;
}

export interface RunningPlugin extends HookSlot {
  readonly name: string;
  /** `unix:///.../bench-m0.sock` */
  readonly target: string;
  readonly pid: number;
}

export interface RunningWebhook extends HookSlot {
  /** `http://127.0.0.1:port` */
  readonly origin: string;
  readonly pid: number;
}

export function hookSlots(mutating: number, validating: number): HookSlot[] {
  return [
    ...Array.from({ length: mutating }, (_, index) => ({ phase: 'mutating' as const, index })),
    ...Array.from({ length: validating }, (_, index) => ({ phase: 'validating' as const, index })),
  ];
}

export function startPlugins(
  children: ChildSet,
  slots: readonly HookSlot[],
  socketDir: string,
  execArgv: readonly string[] = [],
): Promise<RunningPlugin[]> {
  return Promise.all(
    slots.map(async (slot) => {
      const name = pluginName(slot.phase, slot.index);
      const target = `unix://${path.join(socketDir, `${name}.sock`)}`;
      const child = children.start(
        `plugin ${name}`,
        process.execPath,
        nodeArgs(
          benchScript('processes/plugin-main.ts'),
          ['--phase', slot.phase, '--index', String(slot.index), '--listen', target],
          execArgv,
        ),
      );
      await child.readyLine(isReadyLine, READY_TIMEOUT_MS);
      return { ...slot, name, target, pid: child.pid };
    }),
  );
}

export function startWebhooks(children: ChildSet, slots: readonly HookSlot[]): Promise<RunningWebhook[]> {
  return Promise.all(
    slots.map(async (slot) => {
      const child = children.start(
        `webhook ${pluginName(slot.phase, slot.index)}`,
        process.execPath,
        nodeArgs(benchScript('processes/webhook-main.ts'), ['--phase', slot.phase, '--index', String(slot.index)]),
      );
      const ready = await child.readyLine(isReadyLine, READY_TIMEOUT_MS);
      return { ...slot, origin: `http://127.0.0.1:${ready.port ?? 0}`, pid: child.pid };
    }),
  );
}
