/**
 * One long-lived AdmitStream per plugin, carrying many admit messages at once, matched to their
 * answers by id (answers may come in any order). Deadlines and cancellation are our own timers,
 * per message. When the stream breaks, every message in flight on it fails as a transport failure
 * and the next send opens a new stream.
 */
import * as grpc from '@grpc/grpc-js';
import type { AdmitRequest, AdmitResponse__Output } from '@hookgate/proto';
import { onAbort } from './abort-fanout.js';
import { CANCELED, TIMEOUT, clientClosed, type TransportOutcome } from './transport-outcome.js';

export type AdmitDuplex = grpc.ClientDuplexStream<AdmitRequest, AdmitResponse__Output>;

interface Pending {
  readonly resolve: (outcome: TransportOutcome) => void;
  readonly timer: NodeJS.Timeout;
  readonly unsubscribe: () => void;
}

const MAX_ID = 0xffff_ffff;

export class AdmitStreamMux {
  readonly #open: () => AdmitDuplex;
  readonly #onBroken: ((code: grpc.status, detail: string) => void) | undefined;
  readonly #onStray: ((id: number) => void) | undefined;
  readonly #pending = new Map<number, Pending>();
  #call: AdmitDuplex | undefined;
  #lastId = 0;
  #closed = false;

  /** `onStray`: an answer that matches no message in flight (unknown id, duplicate, or after its timeout). */
  constructor(
    open: () => AdmitDuplex,
    onBroken?: (code: grpc.status, detail: string) => void,
    onStray?: (id: number) => void,
  ) {
    this.#open = open;
    this.#onBroken = onBroken;
    this.#onStray = onStray;
  }

  get isOpen(): boolean {
    return this.#call !== undefined;
  }

  get inFlight(): number {
    return this.#pending.size;
  }

  /** Sends one message (its id is set here) and resolves with its answer or why there is none. */
  send(message: AdmitRequest, timeoutMs: number, signal: AbortSignal): Promise<TransportOutcome> {
    if (signal.aborted) return Promise.resolve(CANCELED);
    if (this.#closed) return Promise.resolve(clientClosed());
    const call = this.#ensureOpen();
    const id = this.#allocateId();
    message.id = id;
    const answered = this.#await(id, timeoutMs, signal);
    call.write(message);
    return answered;
  }

  /**
   * Sends one batched message (`message.batch`, the ids of its entries are set here) and returns one
   * promise per entry, in order: each entry has its own timeout and settles on its own answer.
   */
  sendBatch(message: AdmitRequest, timeoutsMs: readonly number[], signal: AbortSignal): Promise<TransportOutcome>[] {
    const entries = message.batch ?? [];
    if (signal.aborted) return entries.map(() => Promise.resolve(CANCELED));
    if (this.#closed) return entries.map(() => Promise.resolve(clientClosed()));
    const call = this.#ensureOpen();
    const answers = entries.map((entry, k) => {
      const id = this.#allocateId();
      entry.id = id;
      return this.#await(id, timeoutsMs[k] ?? 0, signal);
    });
    call.write(message);
    return answers;
  }

  /** Ends the stream; messages still in flight fail as transport failures. */
  close(): void {
    this.#closed = true;
    const call = this.#call;
    if (call === undefined) return;
    this.#broken(call, grpc.status.UNAVAILABLE, 'the plugin client is closing');
    call.cancel();
  }

  #await(id: number, timeoutMs: number, signal: AbortSignal): Promise<TransportOutcome> {
    return new Promise((resolve) => {
      this.#pending.set(id, {
        resolve,
        timer: setTimeout(() => this.#settle(id, TIMEOUT), Math.max(0, timeoutMs)),
        unsubscribe: onAbort(signal, () => this.#settle(id, CANCELED)),
      });
    });
  }

  #ensureOpen(): AdmitDuplex {
    if (this.#call !== undefined) return this.#call;
    const call = this.#open();
    call.on('data', (response: AdmitResponse__Output) => {
      // An unknown id is a late answer to a message that timed out or was cancelled, or a plugin bug: dropped, reported.
      if (!this.#pending.has(response.id)) this.#onStray?.(response.id);
      else this.#settle(response.id, { ok: true, response });
    });
    call.on('error', (error: grpc.ServiceError) => this.#broken(call, error.code, error.details || error.message));
    call.on('end', () => this.#broken(call, grpc.status.UNAVAILABLE, 'the plugin ended the stream'));
    this.#call = call;
    return call;
  }

  #broken(call: AdmitDuplex, code: grpc.status, detail: string): void {
    if (this.#call !== call) return;
    this.#call = undefined;
    const outcome: TransportOutcome = {
      ok: false,
      kind: 'rpc',
      code,
      detail: `admit stream failed: ${detail}`,
      transport: true,
    };
    for (const id of [...this.#pending.keys()]) this.#settle(id, outcome);
    this.#onBroken?.(code, detail);
  }

  #settle(id: number, outcome: TransportOutcome): void {
    const entry = this.#pending.get(id);
    if (entry === undefined) return;
    this.#pending.delete(id);
    clearTimeout(entry.timer);
    entry.unsubscribe();
    entry.resolve(outcome);
  }

  #allocateId(): number {
    let id = this.#lastId;
    do {
      id = id >= MAX_ID ? 1 : id + 1;
    } while (this.#pending.has(id));
    this.#lastId = id;
    return id;
  }
}
