/**
 * One POST through an undici dispatcher with a bare handler: the answer's bytes are collected
 * as they arrive, with no Readable stream, body mixin or header object per call (what
 * `pool.request` costs on top). The load generator plays the apiserver, so its own cost per call
 * is overhead on both setups alike; keeping it small keeps the shared cores for what is measured.
 */
import type { Dispatcher } from 'undici';

export interface RawAnswer {
  readonly statusCode: number;
  readonly body: Buffer;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

export function post(dispatcher: Dispatcher, path: string, body: Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    dispatcher.dispatch({ method: 'POST', path, headers: HEADERS, body }, new AnswerHandler(resolve, reject));
  });
}

class AnswerHandler implements Dispatcher.DispatchHandler {
  #statusCode = 0;
  #chunks: Buffer[] = [];
  #length = 0;
  readonly #resolve: (answer: RawAnswer) => void;
  readonly #reject: (error: Error) => void;

  constructor(resolve: (answer: RawAnswer) => void, reject: (error: Error) => void) {
    this.#resolve = resolve;
    this.#reject = reject;
  }

  /** Present so that undici takes this for a handler of its current API. */
  onRequestStart(): void {}

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    this.#statusCode = statusCode;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
  }

  onResponseEnd(): void {
    const chunks = this.#chunks;
    this.#resolve({
      statusCode: this.#statusCode,
      body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, this.#length),
    });
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.#reject(error);
  }
}
