/**
 * One POST to a bridged hook through undici's handler API: the answer's status, headers and body
 * (read up to a bound) are collected as they arrive, without the Readable stream, async iterator
 * and body mixin `pool.request` builds for every call. Transport errors reject with undici's own
 * errors (for describeTransportError); the signal aborts the exchange at any point.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

export type BodyResult = { ok: true; bytes: Buffer } | { ok: false; error: string };

export interface HookExchange {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  /** The body, or why it was not read to the end (larger than the bound: the connection is closed). */
  readonly body: BodyResult;
}

export interface HookExchangeRequest {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
  readonly signal: AbortSignal;
  readonly maxBytes: number;
}

export function exchange(dispatcher: Dispatcher, request: HookExchangeRequest): Promise<HookExchange> {
  return new Promise((resolve, reject) => {
    const handler = new ExchangeHandler(request.signal, request.maxBytes, resolve, reject);
    if (request.signal.aborted) return reject(abortReason(request.signal));
    dispatcher.dispatch({ method: 'POST', path: request.path, headers: request.headers, body: request.body }, handler);
  });
}

const abortReason = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new Error('This operation was aborted');

class ExchangeHandler implements Dispatcher.DispatchHandler {
  readonly #signal: AbortSignal;
  readonly #maxBytes: number;
  readonly #resolve: (exchange: HookExchange) => void;
  readonly #reject: (error: Error) => void;
  #controller: Dispatcher.DispatchController | undefined;
  #settled = false;
  #statusCode = 0;
  #headers: IncomingHttpHeaders = {};
  #chunks: Buffer[] = [];
  #length = 0;
  readonly #onAbort = () => {
    const reason = abortReason(this.#signal);
    this.#controller?.abort(reason);
    this.#fail(reason);
  };

  constructor(
    signal: AbortSignal,
    maxBytes: number,
    resolve: (exchange: HookExchange) => void,
    reject: (error: Error) => void,
  ) {
    this.#signal = signal;
    this.#maxBytes = maxBytes;
    this.#resolve = resolve;
    this.#reject = reject;
    signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#settled) controller.abort(new Error('This operation was aborted'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.#statusCode = statusCode;
    this.#headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    this.#length += chunk.length;
    if (this.#length > this.#maxBytes) {
      // Nothing more is read: the connection is closed rather than drained.
      this.#done({ ok: false, error: `response body larger than ${this.#maxBytes} bytes` });
      controller.abort(new Error('response body too large'));
      return;
    }
    this.#chunks.push(chunk);
  }

  onResponseEnd(): void {
    const chunks = this.#chunks;
    this.#done({ ok: true, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#length) });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#fail(error);
  }

  #done(body: BodyResult): void {
    if (this.#settled) return;
    this.#settle();
    this.#resolve({ statusCode: this.#statusCode, headers: this.#headers, body });
  }

  #fail(error: Error): void {
    if (this.#settled) return;
    this.#settle();
    this.#reject(error);
  }

  #settle(): void {
    this.#settled = true;
    this.#signal.removeEventListener('abort', this.#onAbort);
  }
}
