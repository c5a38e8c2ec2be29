/**
 * One long-lived AdmitStream per plugin, carrying many admit messages at once, matched to their
 * answers by id (answers may come in any order). Deadlines are ours: one shared timer for all the
 * messages in flight (shared-deadline-timer.ts); cancellation follows each message's signal. When
 * the stream breaks, every message in flight on it fails as a transport failure and the next send
 * opens a new stream.
 */
import * as grpc from '@grpc/grpc-js';
import type { AdmitRequest, AdmitResponse__Output } from '@hookgate/proto';
import { onAbort } from './abort-fanout.js';
import { SharedDeadlineTimer } from './shared-deadline-timer.js';
import { CANCELED, TIMEOUT, clientClosed, type TransportOutcome } from './transport-outcome.js';

export type AdmitDuplex = grpc.ClientDuplexStream<AdmitRequest, AdmitResponse__Output>;

interface Pending {
  readonly resolve: (outcome: TransportOutcome) => void;
  /** performance.now() time after which the message has timed out. */
  readonly deadline: number;
  readonly unsubscribe: () => void;
}

/**
 * Node fires timers on its loop clock, which may lag performance.now() by up to a millisecond: a
 * message due within this much is timed out now rather than by another wake-up.
 */
const TIMER_SLACK_MS = 1;

const MAX_ID = 0xffff_ffff;

export class AdmitStreamMux {
  readonly #open: () => AdmitDuplex;
  readonly #onBroken: ((code: grpc.status, detail: string) => void) | undefined;
  readonly #onStray: ((id: number) => void) | undefined;
  readonly #pending = new Map<number, Pending>();
  readonly #deadlines = new SharedDeadlineTimer((now) => this.#expire(now));
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
    this.#deadlines.stop();
    const call = this.#call;
    if (call === undefined) return;
    this.#broken(call, grpc.status.UNAVAILABLE, 'the plugin client is closing');
    call.cancel();
  }

  #await(id: number, timeoutMs: number, signal: AbortSignal): Promise<TransportOutcome> {
    const deadline = performance.now() + Math.max(0, timeoutMs);
    this.#deadlines.add(deadline);
    return new Promise((resolve) => {
      this.#pending.set(id, { resolve, deadline, unsubscribe: onAbort(signal, () => this.#settle(id, CANCELED)) });
    });
  }

  /** The shared timer fired: time out what is due, and name the next deadline. */
  #expire(now: number): number | undefined {
    let next = Number.POSITIVE_INFINITY;
    for (const [id, entry] of this.#pending) {
      if (entry.deadline <= now + TIMER_SLACK_MS) this.#settle(id, TIMEOUT);
      else if (entry.deadline < next) next = entry.deadline;
    }
    return next === Number.POSITIVE_INFINITY ? undefined : next;
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
