/** grpc.health.v1.Health: Check and Watch over a small table of service → status. */
import * as grpc from '@grpc/grpc-js';
import type { HealthCheckResponse, HealthHandlers, ServingStatus__Output } from '@hookgate/proto';

type Watcher = (status: ServingStatus__Output) => void;

export class HealthState {
  readonly #statuses = new Map<string, ServingStatus__Output>();
  readonly #watchers = new Map<string, Set<Watcher>>();
  readonly #watchCalls = new Set<grpc.ServerWritableStream<unknown, unknown>>();

  constructor(services: readonly string[], initial: ServingStatus__Output) {
    for (const service of services) this.#statuses.set(service, initial);
  }

  get(service: string): ServingStatus__Output | undefined {
    return this.#statuses.get(service);
  }

  /** Sets every known service's status (the whole plugin serves or not). */
  setAll(status: ServingStatus__Output): void {
    for (const service of this.#statuses.keys()) this.set(service, status);
  }

  set(service: string, status: ServingStatus__Output): void {
    if (this.#statuses.get(service) === status) return;
    this.#statuses.set(service, status);
    for (const watcher of this.#watchers.get(service) ?? []) watcher(status);
  }

  watch(service: string, watcher: Watcher): () => void {
    let set = this.#watchers.get(service);
    if (set === undefined) this.#watchers.set(service, (set = new Set()));
    set.add(watcher);
    return () => set.delete(watcher);
  }

  handlers(): HealthHandlers {
    return {
      Check: (call, callback) => {
        const status = this.get(call.request.service);
        if (status === undefined) {
          callback({ code: grpc.status.NOT_FOUND, details: `unknown service ${JSON.stringify(call.request.service)}` });
          return;
        }
        callback(null, { status });
      },
      Watch: (call) => {
        const service = call.request.service;
        const send = (status: ServingStatus__Output): void => {
          const reply: HealthCheckResponse = { status };
          call.write(reply);
        };
        send(this.get(service) ?? 'SERVICE_UNKNOWN');
        const unwatch = this.watch(service, send);
        const generic = call as unknown as grpc.ServerWritableStream<unknown, unknown>;
        this.#watchCalls.add(generic);
        const stop = (): void => {
          unwatch();
          this.#watchCalls.delete(generic);
        };
        // Watch ends when the client goes away or the server shuts down (close()).
        call.on('cancelled', stop);
        call.on('error', stop);
        call.on('close', stop);
      },
    };
  }

  /** Sends NOT_SERVING to every watcher, then ends the Watch streams (they would hold a graceful shutdown). */
  close(): void {
    this.setAll('NOT_SERVING');
    for (const call of this.#watchCalls) call.end();
    this.#watchCalls.clear();
    this.#watchers.clear();
  }
}
