import { afterEach, describe, expect, it } from 'vitest';
import type { LoadedConfiguration } from '@hookgate/config';
import type { PrimaryMessage, WorkerMessage } from './messages.js';
import { openPrimaryInbox, type PrimaryInbox } from './primary-inbox.js';

const configuration = (generation: number): PrimaryMessage => ({
  type: 'hookgate:configuration',
  generation,
  configuration: { digest: `d${generation}` } as unknown as LoadedConfiguration,
  registry: { generation: 1, registrations: [] },
});
const registry = (generation: number): PrimaryMessage => ({
  type: 'hookgate:registry',
  registry: { generation, registrations: [] },
});
const fromPrimary = (message: unknown) => process.emit('message', message, undefined);

describe('a worker’s inbox from the primary', () => {
  let inbox: PrimaryInbox | undefined;
  afterEach(() => inbox?.close());

  it('says hello once it listens, and answers the first configuration', async () => {
    const sent: WorkerMessage[] = [];
    inbox = openPrimaryInbox((m) => sent.push(m));
    expect(sent).toEqual([{ type: 'hookgate:hello' }]);
    fromPrimary(configuration(1));
    expect(await inbox.first).toEqual(configuration(1));
  });

  it('drops registry snapshots older than the first configuration, keeps what follows it in order, and ignores other messages', async () => {
    inbox = openPrimaryInbox(() => undefined);
    const steps = [
      registry(1),
      configuration(1),
      registry(2),
      { type: 'not-ours' },
      configuration(2),
      { type: 'hookgate:shutdown' },
    ];
    for (const step of steps) fromPrimary(step);
    expect(await inbox.first).toEqual(configuration(1));
    const delivered: PrimaryMessage[] = [];
    inbox.deliverTo((m) => delivered.push(m));
    fromPrimary(registry(3));
    expect(delivered).toEqual([registry(2), configuration(2), { type: 'hookgate:shutdown' }, registry(3)]);
  });
});
