/** The harness's side of the load generator: start it, run measurements, forget targets. */
import type { LoadResult, LoadSpec, LoadgenCommand, LoadgenReply, TargetSpec } from '../load/protocol.js';
import type { ChildSet, TrackedChild } from './child-set.js';
import { isReadyLine } from './exit-with-parent.js';
import { benchScript, nodeArgs } from './node-scripts.js';

export class LoadgenClient {
  readonly #child: TrackedChild;
  readonly #pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();
  #nextId = 1;

  private constructor(child: TrackedChild) {
    this.#child = child;
    child.child.on('message', (message: LoadgenReply) => {
      const waiting = this.#pending.get(message.id);
      this.#pending.delete(message.id);
      if (message.type === 'result') waiting?.resolve(message.result);
      else waiting?.reject(new Error(`load generator: ${message.error}`));
    });
    child.child.once('exit', (code, signal) => {
      for (const waiting of this.#pending.values())
        waiting.reject(new Error(`the load generator exited (${code ?? signal}):\n${child.output()}`));
      this.#pending.clear();
    });
  }

  static async start(children: ChildSet): Promise<LoadgenClient> {
    const child = children.start(
      'load generator',
      process.execPath,
      nodeArgs(benchScript('processes/loadgen-main.ts'), []),
      { stdio: ['pipe', 'pipe', 'pipe', 'ipc'] },
    );
    await child.readyLine(isReadyLine, 60_000);
    return new LoadgenClient(child);
  }

  get pid(): number {
    return this.#child.pid;
  }

  run(target: TargetSpec, load: LoadSpec, cpuPids: Readonly<Record<string, readonly number[]>>): Promise<LoadResult> {
    const id = this.#nextId++;
    return new Promise<LoadResult>((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send({ type: 'run', id, target, load, cpuPids });
    });
  }

  /** Closes the pools of a target that went away (a stopped gateway). */
  drop(target: TargetSpec): void {
    this.#send({ type: 'drop', target });
  }

  #send(command: LoadgenCommand): void {
    if (!this.#child.child.connected) throw new Error(`the load generator is not running:\n${this.#child.output()}`);
    this.#child.child.send(command);
  }
}
