/**
 * Reads a hook's response body up to a size bound, so a misbehaving hook cannot make the gateway
 * buffer without limit.
 */
import type { Dispatcher } from 'undici';

export type BodyResult = { ok: true; bytes: Buffer } | { ok: false; error: string };

export async function readBoundedBody(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<BodyResult> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    total += buf.length;
    if (total > maxBytes) {
      // Leaving the loop destroys the stream (and its connection): nothing more is read.
      return { ok: false, error: `response body larger than ${maxBytes} bytes` };
    }
    chunks.push(buf);
  }
  return { ok: true, bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total) };
}
