import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { AdmitRequest } from '@hookgate/proto';
import { AdmitStreamMux, type AdmitDuplex } from './admit-stream.js';

/** The stream's two ends as the mux uses them: write() out, 'data' in. */
function fakeStream(): { duplex: AdmitDuplex; written: AdmitRequest[]; answer: (id: number) => void } {
  const emitter = new EventEmitter();
  const written: AdmitRequest[] = [];
  const duplex = Object.assign(emitter, {
    write: (m: AdmitRequest) => written.push(m),
    cancel: () => undefined,
  }) as unknown as AdmitDuplex;
  return { duplex, written, answer: (id) => emitter.emit('data', { id, uid: '', allowed: true }) };
}

describe('AdmitStreamMux: answers that match no message in flight', () => {
  it('are reported, not taken for another call', async () => {
    const stream = fakeStream();
    const stray: number[] = [];
    const mux = new AdmitStreamMux(
      () => stream.duplex,
      undefined,
      (id) => stray.push(id),
    );
    const pending = mux.send({ hook: 'h' }, 1000, new AbortController().signal);
    const id = stream.written[0]!.id!;
    stream.answer(id + 100); // unknown id
    stream.answer(id);
    stream.answer(id); // repeated
    expect(await pending).toMatchObject({ ok: true, response: { id } });
    expect(stray).toEqual([id + 100, id]);
    expect(mux.inFlight).toBe(0);
    mux.close();
  });
});

describe('AdmitStreamMux: deadlines on one shared timer', () => {
  it('times out each message at its own deadline, earlier ones sent after later ones included', async () => {
    const stream = fakeStream();
    const mux = new AdmitStreamMux(() => stream.duplex);
    const never = new AbortController().signal;
    const order: string[] = [];
    const track = (name: string, p: Promise<{ ok: boolean; kind?: string }>) =>
      p.then((o) => order.push(`${name}:${o.ok ? 'answered' : o.kind}`));
    const slow = track('slow', mux.send({ hook: 'slow' }, 400, never));
    const fast = track('fast', mux.send({ hook: 'fast' }, 60, never));
    const answered = track('answered', mux.send({ hook: 'answered' }, 60, never));
    stream.answer(stream.written[2]!.id!);
    await Promise.all([fast, answered]);
    expect(order).toEqual(['answered:answered', 'fast:timeout']);
    // The later deadline is still pending after the earlier one fired, and fires in its turn.
    expect(mux.inFlight).toBe(1);
    await slow;
    expect(order).toEqual(['answered:answered', 'fast:timeout', 'slow:timeout']);
    mux.close();
  });
});
