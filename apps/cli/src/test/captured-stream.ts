/** A writable stream that keeps what a command writes, for tests that call commands in-process. */
import { Writable } from 'node:stream';

export function capture(): { readonly stream: Writable; text(): string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}
