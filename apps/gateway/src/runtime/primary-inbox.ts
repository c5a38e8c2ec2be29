/**
 * A worker's messages from the primary, listened to from the very start, so that none is lost
 * while the worker starts (compiling hooks, TLS, binding the port): what arrives after the first
 * configuration is kept until the worker takes its messages. Registry snapshots that arrive
 * before the first configuration are dropped: the configuration carries a newer snapshot.
 */
import { isPrimaryMessage, type PrimaryMessage, type WorkerMessage } from './messages.js';

export type ConfigurationMessage = Extract<PrimaryMessage, { type: 'hookgate:configuration' }>;

export interface PrimaryInbox {
  /** The first configuration (the primary's answer to this worker's hello). */
  readonly first: Promise<ConfigurationMessage>;
  /** Delivers every later message to `handler`, the ones kept so far first. */
  deliverTo(handler: (message: PrimaryMessage) => void): void;
  /** Stops listening. */
  close(): void;
}

/** Starts listening, then says hello (a hello answered before the listener was in place would be lost). */
export function openPrimaryInbox(send: (message: WorkerMessage) => void): PrimaryInbox {
  const kept: PrimaryMessage[] = [];
  let handler: ((message: PrimaryMessage) => void) | undefined;
  let configured = false;
  let resolveFirst: (message: ConfigurationMessage) => void = () => undefined;
  const first = new Promise<ConfigurationMessage>((resolve) => (resolveFirst = resolve));
  const listener = (message: unknown): void => {
    if (!isPrimaryMessage(message)) return;
    if (!configured && message.type === 'hookgate:configuration') {
      configured = true;
      resolveFirst(message);
      return;
    }
    if (!configured && message.type === 'hookgate:registry') return;
    if (handler === undefined) kept.push(message);
    else handler(message);
  };
  process.on('message', listener);
  send({ type: 'hookgate:hello' });
  return {
    first,
    deliverTo(next) {
      handler = next;
      for (const message of kept.splice(0)) next(message);
    },
    close() {
      process.off('message', listener);
    },
  };
}
