/**
 * The floor of one hook message on a long-lived bidi stream, without Hookgate code: grpc-js against
 * the same gRPC framing written on node:http2 directly, each side measured in its own process (CPU µs
 * per message round trip: an 8 KB request out, a 64-byte answer back, identity serialisers so no
 * protobuf cost). All four pairings run, so the client's and the server's shares are seen apart.
 * Answers "would speaking AdmitStream over node:http2 ourselves pay, and on which side?"
 *
 *   node --conditions=development --import tsx tools/bench/src/micro/stream-transport-micro.ts [--in-flight 1] [--messages 20000] [--runs 3]
 *
 * `--in-flight 1` is the mutating chain (one call at a time per plugin); higher is validating load.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import * as grpc from '@grpc/grpc-js';

type Transport = 'grpc-js' | 'http2';
const identity = (b: Buffer): Buffer => b;
const METHOD = {
  path: '/bench.Echo/Stream',
  requestStream: true,
  responseStream: true,
  requestSerialize: identity,
  requestDeserialize: identity,
  responseSerialize: identity,
  responseDeserialize: identity,
} as const;
const SERVICE = { Stream: METHOD } as unknown as grpc.ServiceDefinition;
const ANSWER_BYTES = 64;

/** gRPC's length-prefixed message: flag byte 0 (uncompressed), 4-byte big-endian length. */
function frame(message: Buffer): Buffer {
  const out = Buffer.allocUnsafe(5 + message.length);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  message.copy(out, 5);
  return out;
}

/** Calls `onMessage` for each whole gRPC message in a byte stream that arrives in chunks. */
function deframer(onMessage: (message: Buffer) => void): (chunk: Buffer) => void {
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (pending.length >= 5) {
      const length = pending.readUInt32BE(1);
      if (pending.length < 5 + length) break;
      onMessage(pending.subarray(5, 5 + length));
      pending = pending.subarray(5 + length);
    }
  };
}

function serve(kind: Transport, socket: string): void {
  process.on('message', (m) => {
    if (m !== 'cpu') return;
    const used = process.cpuUsage();
    process.send!(used.user + used.system);
  });
  if (kind === 'grpc-js') {
    const server = new grpc.Server();
    server.addService(SERVICE, {
      Stream(call: grpc.ServerDuplexStream<Buffer, Buffer>) {
        call.on('data', (m: Buffer) => call.write(m.subarray(0, ANSWER_BYTES)));
        call.on('end', () => call.end());
        call.on('error', () => undefined);
      },
    });
    server.bindAsync(`unix://${socket}`, grpc.ServerCredentials.createInsecure(), (error) => {
      if (error) throw error;
      process.send!('up');
    });
    return;
  }
  const server = http2.createServer();
  server.on('stream', (stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.on(
      'data',
      deframer((m) => stream.write(frame(m.subarray(0, ANSWER_BYTES)))),
    );
    stream.on('end', () => stream.end());
    stream.on('error', () => undefined);
  });
  server.listen(socket, () => process.send!('up'));
}

interface StreamClient {
  send(message: Buffer): void;
  close(): void;
}

function connect(kind: Transport, socket: string, onAnswer: () => void): StreamClient {
  if (kind === 'grpc-js') {
    const Client = grpc.makeGenericClientConstructor(SERVICE as grpc.ServiceDefinition<never>, 'Echo');
    const client = new Client(`unix://${socket}`, grpc.credentials.createInsecure());
    const call = client.makeBidiStreamRequest<Buffer, Buffer>(METHOD.path, identity, identity);
    call.on('data', onAnswer);
    call.on('error', () => undefined);
    return { send: (m) => void call.write(m), close: () => (call.end(), client.close()) };
  }
  const session = http2.connect('http://localhost', { createConnection: () => net.connect(socket) });
  session.on('error', () => undefined);
  const stream = session.request({
    ':method': 'POST',
    ':path': METHOD.path,
    'content-type': 'application/grpc',
    te: 'trailers',
  });
  stream.on('error', () => undefined);
  stream.on('data', deframer(onAnswer));
  return { send: (m) => void stream.write(frame(m)), close: () => (stream.close(), session.close()) };
}

let measurements = 0;

async function measure(client: Transport, server: Transport, inFlight: number, messages: number, dir: string) {
  // A socket file per measurement: a killed server leaves its file behind, and grpc-js will not bind over it.
  const socket = path.join(dir, `${++measurements}.sock`);
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve', server, '--socket', socket], {
    execArgv: process.execArgv,
  });
  try {
    await new Promise((resolve) => child.once('message', resolve));
    const serverCpu = () =>
      new Promise<number>((resolve) => {
        child.once('message', (m) => resolve(m as number));
        child.send('cpu');
      });
    const payload = Buffer.alloc(8192, 'a');
    let answered = 0;
    let sent = 0;
    let target = 0;
    let finished: () => void = () => undefined;
    const stream = connect(client, socket, () => {
      answered++;
      if (sent < target) {
        sent++;
        stream.send(payload);
      }
      if (answered === target) finished();
    });
    /** Sends `count` more messages, `inFlight` at a time, and waits for every answer. */
    const exchange = (count: number) => {
      target += count;
      const done = new Promise<void>((resolve) => (finished = resolve));
      for (let started = 0; started < Math.min(inFlight, count); started++, sent++) stream.send(payload);
      return done;
    };
    // The connection, the stream and the JIT warm up outside the measurement.
    await exchange(Math.min(2_000, messages));
    const serverBefore = await serverCpu();
    const clientBefore = process.cpuUsage();
    await exchange(messages);
    const clientUsed = process.cpuUsage(clientBefore);
    const serverUsed = (await serverCpu()) - serverBefore;
    stream.close();
    return { client: (clientUsed.user + clientUsed.system) / messages, server: serverUsed / messages };
  } finally {
    await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill();
  }
}

const { values } = parseArgs({
  options: {
    serve: { type: 'string' },
    socket: { type: 'string' },
    'in-flight': { type: 'string', default: '1' },
    messages: { type: 'string', default: '20000' },
    runs: { type: 'string', default: '3' },
  },
});

if (values.serve !== undefined) {
  serve(values.serve as Transport, values.socket!);
} else {
  const inFlight = Number(values['in-flight']);
  const messages = Number(values.messages);
  const runs = Number(values.runs);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'stream-transport-'));
  const kinds: Transport[] = ['grpc-js', 'http2'];
  console.log(`stream-transport-micro: ${messages} messages, ${inFlight} in flight, ${runs} runs (medians)`);
  console.log('client    server     client µs/msg   server µs/msg');
  try {
    for (const client of kinds)
      for (const server of kinds) {
        const results = [];
        for (let r = 0; r < runs; r++) results.push(await measure(client, server, inFlight, messages, dir));
        const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
        const c = median(results.map((x) => x.client));
        const s = median(results.map((x) => x.server));
        console.log(
          `${client.padEnd(9)} ${server.padEnd(9)}  ${c.toFixed(1).padStart(13)}   ${s.toFixed(1).padStart(13)}`,
        );
      }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
