/**
 * A hand-written wire codec for the two messages of every hook call (AdmitRequest, AdmitResponse),
 * used by Admit and AdmitStream in place of proto-loader's generic one. Same wire format (proto3,
 * plugin.proto), same JavaScript shapes as LOADER_OPTIONS (camelCase, bytes as Buffer, enums as
 * names, every field filled in on decode), so neither side can tell: plugins in other languages see
 * the same bytes. Why: protobufjs encodes through fromObject, a Writer op list and a copy, and
 * decodes in two passes (decode, then toObject); this is one pass each way, one allocation per
 * encoded message, and the bytes fields of a decoded message are views of the received buffer (as
 * protobufjs's are). The parity test (admit-codec.test.ts) checks both against proto-loader.
 */
import type { AdmitRequest, AdmitRequest__Output } from './generated/hookgate/plugin/v1/AdmitRequest.js';
import type { AdmitResponse, AdmitResponse__Output } from './generated/hookgate/plugin/v1/AdmitResponse.js';
import type { BatchedCall, BatchedCall__Output } from './generated/hookgate/plugin/v1/BatchedCall.js';
import type { Phase, Phase__Output } from './generated/hookgate/plugin/v1/Phase.js';
import type { SideEffect__Output } from './generated/hookgate/plugin/v1/SideEffect.js';
import type { Status__Output } from './generated/hookgate/plugin/v1/Status.js';
import type { HookError__Output } from './generated/hookgate/plugin/v1/HookError.js';

const VARINT = 0;
const FIXED64 = 1;
const LEN = 2;
const START_GROUP = 3;
const END_GROUP = 4;
const FIXED32 = 5;

const PHASE_NAMES: readonly Phase__Output[] = ['PHASE_UNSPECIFIED', 'MUTATING', 'VALIDATING'];
const PHASE_NUMBERS: Readonly<Record<string, number>> = { PHASE_UNSPECIFIED: 0, MUTATING: 1, VALIDATING: 2 };

type Bytes = Buffer | Uint8Array | string | undefined | null;

// ---------------------------------------------------------------- encoding

/** A message's fields as normalised once: sizes first, then one buffer of exactly that size. */
class Encoder {
  buf: Buffer;
  pos = 0;

  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }

  varint(value: number): void {
    // value is a uint32, or a negative int32 written as ten bytes (two's complement, 64 bits).
    const buf = this.buf;
    if (value < 0) {
      let lo = value >>> 0;
      for (let i = 0; i < 4; i++) {
        buf[this.pos++] = (lo & 0x7f) | 0x80;
        lo >>>= 7;
      }
      // bits 28..31 of the low word, then 1-bits up to bit 63.
      buf[this.pos++] = lo | 0x70 | 0x80;
      for (let i = 0; i < 4; i++) buf[this.pos++] = 0xff;
      buf[this.pos++] = 0x01;
      return;
    }
    while (value > 0x7f) {
      buf[this.pos++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    buf[this.pos++] = value;
  }

  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  uint(field: number, value: number): void {
    if (value === 0) return;
    this.tag(field, VARINT);
    this.varint(value);
  }

  string(field: number, value: string, bytes: number): void {
    if (bytes === 0) return;
    this.tag(field, LEN);
    this.varint(bytes);
    this.pos += this.buf.write(value, this.pos, bytes, 'utf8');
  }

  bytes(field: number, value: Uint8Array): void {
    if (value.length === 0) return;
    this.tag(field, LEN);
    this.varint(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
  }
}

function varintSize(value: number): number {
  if (value < 0) return 10;
  if (value < 0x80) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x200000) return 3;
  if (value < 0x10000000) return 4;
  return 5;
}

/** Tag + length + payload of a length-delimited field; 0 for an empty one (not written). */
function lenField(field: number, length: number): number {
  return length === 0 ? 0 : varintSize(field << 3) + varintSize(length) + length;
}

function uintField(field: number, value: number): number {
  return value === 0 ? 0 : varintSize(field << 3) + varintSize(value);
}

/** Number fields as protobufjs's fromObject takes them (`>>> 0` for uint32, `| 0` for int32). */
function u32(value: number | undefined | null): number {
  return value == null ? 0 : Number(value) >>> 0;
}

function i32(value: number | undefined | null): number {
  return value == null ? 0 : Number(value) | 0;
}

function str(value: string | undefined | null): string {
  return value == null ? '' : String(value);
}

/** Bytes as protobufjs's fromObject takes them: a string is base64. */
function bytesOf(value: Bytes): Uint8Array {
  if (value == null) return EMPTY;
  if (typeof value === 'string') return Buffer.from(value, 'base64');
  return value;
}

function phaseNumber(value: Phase | undefined | null): number {
  if (value == null) return 0;
  if (typeof value === 'number') return value >>> 0;
  return PHASE_NUMBERS[value] ?? 0;
}

interface NormalisedCall {
  readonly id: number;
  readonly hook: string;
  readonly hookBytes: number;
  readonly round: number;
  readonly uid: string;
  readonly uidBytes: number;
  readonly timeoutMs: number;
  readonly reviewVersion: string;
  readonly reviewVersionBytes: number;
  readonly size: number;
}

function normaliseCall(call: BatchedCall): NormalisedCall {
  const hook = str(call.hook);
  const uid = str(call.uid);
  const reviewVersion = str(call.reviewVersion);
  const id = u32(call.id);
  const round = u32(call.round);
  const timeoutMs = u32(call.timeoutMs);
  const hookBytes = Buffer.byteLength(hook);
  const uidBytes = Buffer.byteLength(uid);
  const reviewVersionBytes = Buffer.byteLength(reviewVersion);
  const size =
    uintField(1, id) +
    lenField(2, hookBytes) +
    uintField(3, round) +
    lenField(4, uidBytes) +
    uintField(5, timeoutMs) +
    lenField(6, reviewVersionBytes);
  return { id, hook, hookBytes, round, uid, uidBytes, timeoutMs, reviewVersion, reviewVersionBytes, size };
}

export function encodeAdmitRequest(message: AdmitRequest): Buffer {
  const id = u32(message.id);
  const hook = str(message.hook);
  const phase = phaseNumber(message.phase);
  const round = u32(message.round);
  const uid = str(message.uid);
  const request = bytesOf(message.request);
  const baseRequest = bytesOf(message.baseRequest);
  const patch = bytesOf(message.patch);
  const timeoutMs = u32(message.timeoutMs);
  const reviewVersion = str(message.reviewVersion);
  const requestHead = bytesOf(message.requestHead);
  const batch = (message.batch ?? []).map(normaliseCall);
  const hookBytes = Buffer.byteLength(hook);
  const uidBytes = Buffer.byteLength(uid);
  const reviewVersionBytes = Buffer.byteLength(reviewVersion);
  let size =
    uintField(1, id) +
    lenField(2, hookBytes) +
    uintField(3, phase) +
    uintField(4, round) +
    lenField(5, uidBytes) +
    lenField(6, request.length) +
    lenField(7, baseRequest.length) +
    lenField(8, patch.length) +
    uintField(9, timeoutMs) +
    lenField(10, reviewVersionBytes) +
    lenField(11, requestHead.length);
  // An entry is written even when empty (a repeated message's element always is).
  for (const call of batch) size += varintSize(16 << 3) + varintSize(call.size) + call.size;

  const out = new Encoder(size);
  out.uint(1, id);
  out.string(2, hook, hookBytes);
  out.uint(3, phase);
  out.uint(4, round);
  out.string(5, uid, uidBytes);
  out.bytes(6, request);
  out.bytes(7, baseRequest);
  out.bytes(8, patch);
  out.uint(9, timeoutMs);
  out.string(10, reviewVersion, reviewVersionBytes);
  out.bytes(11, requestHead);
  for (const call of batch) {
    out.tag(16, LEN);
    out.varint(call.size);
    out.uint(1, call.id);
    out.string(2, call.hook, call.hookBytes);
    out.uint(3, call.round);
    out.string(4, call.uid, call.uidBytes);
    out.uint(5, call.timeoutMs);
    out.string(6, call.reviewVersion, call.reviewVersionBytes);
  }
  return finished(out, size);
}

export function encodeAdmitResponse(message: AdmitResponse): Buffer {
  if (isPlainAnswer(message)) return encodePlainAnswer(message);
  const id = u32(message.id);
  const uid = str(message.uid);
  const allowed = message.allowed ? 1 : 0;
  const patch = bytesOf(message.patch);
  const warnings = (message.warnings ?? []).map(str);
  const annotations = Object.entries(message.auditAnnotations ?? {}).map(([k, v]) => [str(k), str(v)] as const);
  const sideEffects = (message.sideEffects ?? []).map((s) => ({
    kind: str(s.kind),
    key: str(s.key),
    payload: bytesOf(s.payload),
  }));
  const uidBytes = Buffer.byteLength(uid);
  let size = uintField(1, id) + lenField(2, uidBytes) + uintField(3, allowed) + lenField(5, patch.length);

  let status: { code: number; reason: string; message: string; size: number } | undefined;
  if (message.status != null) {
    const code = i32(message.status.code);
    const reason = str(message.status.reason);
    const text = str(message.status.message);
    const inner = uintField(1, code) + lenField(2, Buffer.byteLength(reason)) + lenField(3, Buffer.byteLength(text));
    status = { code, reason, message: text, size: inner };
    size += varintSize(4 << 3) + varintSize(inner) + inner;
  }
  const warningBytes = warnings.map((w) => Buffer.byteLength(w));
  for (const n of warningBytes) size += varintSize(6 << 3) + varintSize(n) + n;
  const entrySizes = annotations.map(([k, v]) => {
    const inner = lenField(1, Buffer.byteLength(k)) + lenField(2, Buffer.byteLength(v));
    size += varintSize(7 << 3) + varintSize(inner) + inner;
    return inner;
  });
  const effectSizes = sideEffects.map((s) => {
    const inner =
      lenField(1, Buffer.byteLength(s.kind)) + lenField(2, Buffer.byteLength(s.key)) + lenField(3, s.payload.length);
    size += varintSize(8 << 3) + varintSize(inner) + inner;
    return inner;
  });
  let error: { code: number; message: string; size: number } | undefined;
  if (message.error != null) {
    const code = u32(message.error.code);
    const text = str(message.error.message);
    const inner = uintField(1, code) + lenField(2, Buffer.byteLength(text));
    error = { code, message: text, size: inner };
    size += varintSize(9 << 3) + varintSize(inner) + inner;
  }

  const out = new Encoder(size);
  out.uint(1, id);
  out.string(2, uid, uidBytes);
  out.uint(3, allowed);
  if (status !== undefined) {
    out.tag(4, LEN);
    out.varint(status.size);
    if (status.code !== 0) {
      out.tag(1, VARINT);
      out.varint(status.code);
    }
    out.string(2, status.reason, Buffer.byteLength(status.reason));
    out.string(3, status.message, Buffer.byteLength(status.message));
  }
  out.bytes(5, patch);
  warnings.forEach((w, i) => {
    // An empty string in a repeated field is still an element.
    out.tag(6, LEN);
    out.varint(warningBytes[i]!);
    out.pos += out.buf.write(w, out.pos, warningBytes[i]!, 'utf8');
  });
  annotations.forEach(([k, v], i) => {
    out.tag(7, LEN);
    out.varint(entrySizes[i]!);
    out.string(1, k, Buffer.byteLength(k));
    out.string(2, v, Buffer.byteLength(v));
  });
  sideEffects.forEach((s, i) => {
    out.tag(8, LEN);
    out.varint(effectSizes[i]!);
    out.string(1, s.kind, Buffer.byteLength(s.kind));
    out.string(2, s.key, Buffer.byteLength(s.key));
    out.bytes(3, s.payload);
  });
  if (error !== undefined) {
    out.tag(9, LEN);
    out.varint(error.size);
    out.uint(1, error.code);
    out.string(2, error.message, Buffer.byteLength(error.message));
  }
  return finished(out, size);
}

/** Most answers: an id, a uid, a decision and perhaps a patch; nothing repeated, nothing nested. */
function isPlainAnswer(message: AdmitResponse): boolean {
  return (
    message.status == null &&
    message.error == null &&
    (message.warnings === undefined || message.warnings.length === 0) &&
    (message.sideEffects === undefined || message.sideEffects.length === 0) &&
    (message.auditAnnotations === undefined || isEmptyRecord(message.auditAnnotations))
  );
}

function isEmptyRecord(record: object): boolean {
  for (const _ in record) return false;
  return true;
}

function encodePlainAnswer(message: AdmitResponse): Buffer {
  const id = u32(message.id);
  const uid = str(message.uid);
  const allowed = message.allowed ? 1 : 0;
  const patch = bytesOf(message.patch);
  const uidBytes = Buffer.byteLength(uid);
  const size = uintField(1, id) + lenField(2, uidBytes) + uintField(3, allowed) + lenField(5, patch.length);
  const out = new Encoder(size);
  out.uint(1, id);
  out.string(2, uid, uidBytes);
  out.uint(3, allowed);
  out.bytes(5, patch);
  return finished(out, size);
}

function finished(out: Encoder, size: number): Buffer {
  if (out.pos !== size) throw new Error(`admit codec: wrote ${out.pos} bytes, sized ${size} (a bug in admit-codec.ts)`);
  return out.buf;
}

// ---------------------------------------------------------------- decoding

const EMPTY = Buffer.alloc(0);

class Decoder {
  pos: number;

  constructor(
    readonly buf: Buffer,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }

  get more(): boolean {
    return this.pos < this.end;
  }

  /** A varint as a uint32 (the low 32 bits, as protobufjs reads uint32/int32/enum/bool fields). */
  varint(): number {
    const buf = this.buf;
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const b = this.byte(buf);
      value += shift < 28 ? (b & 0x7f) << shift : (b & 0x0f) * 2 ** 28;
      if (b < 0x80) return value >>> 0;
    }
    // Bytes 6 to 10 of a 64-bit varint carry bits above 32: skipped.
    for (let i = 0; i < 5; i++) if (this.byte(buf) < 0x80) return value >>> 0;
    throw new Error('invalid varint encoding');
  }

  byte(buf: Buffer): number {
    if (this.pos >= this.end) throw new RangeError('index out of range: the message ends inside a field');
    return buf[this.pos++]!;
  }

  /** [start, end) of a length-delimited field's payload. */
  span(): number {
    const length = this.varint();
    const start = this.pos;
    if (start + length > this.end) throw new RangeError('index out of range: a field is longer than the message');
    this.pos = start + length;
    return start;
  }

  bytes(): Buffer {
    const start = this.span();
    return this.buf.subarray(start, this.pos);
  }

  string(): string {
    const start = this.span();
    return start === this.pos ? '' : this.buf.toString('utf8', start, this.pos);
  }

  /** A nested message: a decoder over its payload. */
  nested(): Decoder {
    const start = this.span();
    return new Decoder(this.buf, start, this.pos);
  }

  skip(wire: number, field: number): void {
    switch (wire) {
      case VARINT:
        this.varint();
        return;
      case FIXED64:
        this.advance(8);
        return;
      case LEN:
        this.span();
        return;
      case START_GROUP:
        for (;;) {
          const tag = this.varint();
          if ((tag & 7) === END_GROUP) {
            if (tag >>> 3 !== field) throw new Error('invalid wire type: unmatched end of group');
            return;
          }
          this.skip(tag & 7, tag >>> 3);
        }
      case FIXED32:
        this.advance(4);
        return;
      default:
        throw new Error(`invalid wire type ${wire} at offset ${this.pos}`);
    }
  }

  advance(n: number): void {
    if (this.pos + n > this.end) throw new RangeError('index out of range: the message ends inside a field');
    this.pos += n;
  }
}

export function decodeAdmitRequest(buf: Buffer): AdmitRequest__Output {
  const message: AdmitRequest__Output = {
    id: 0,
    hook: '',
    phase: 'PHASE_UNSPECIFIED',
    round: 0,
    uid: '',
    request: EMPTY,
    baseRequest: EMPTY,
    patch: EMPTY,
    timeoutMs: 0,
    reviewVersion: '',
    requestHead: EMPTY,
    batch: [],
  };
  const r = new Decoder(buf, 0, buf.length);
  while (r.more) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (wire === VARINT) {
      if (field === 1) message.id = r.varint();
      else if (field === 3) message.phase = phaseName(r.varint());
      else if (field === 4) message.round = r.varint();
      else if (field === 9) message.timeoutMs = r.varint();
      else r.skip(wire, field);
    } else if (wire === LEN) {
      if (field === 2) message.hook = r.string();
      else if (field === 5) message.uid = r.string();
      else if (field === 6) message.request = r.bytes();
      else if (field === 7) message.baseRequest = r.bytes();
      else if (field === 8) message.patch = r.bytes();
      else if (field === 10) message.reviewVersion = r.string();
      else if (field === 11) message.requestHead = r.bytes();
      else if (field === 16) message.batch.push(decodeBatchedCall(r.nested()));
      else r.skip(wire, field);
    } else r.skip(wire, field);
  }
  return message;
}

function decodeBatchedCall(r: Decoder): BatchedCall__Output {
  const call: BatchedCall__Output = { id: 0, hook: '', round: 0, uid: '', timeoutMs: 0, reviewVersion: '' };
  while (r.more) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (wire === VARINT && field === 1) call.id = r.varint();
    else if (wire === VARINT && field === 3) call.round = r.varint();
    else if (wire === VARINT && field === 5) call.timeoutMs = r.varint();
    else if (wire === LEN && field === 2) call.hook = r.string();
    else if (wire === LEN && field === 4) call.uid = r.string();
    else if (wire === LEN && field === 6) call.reviewVersion = r.string();
    else r.skip(wire, field);
  }
  return call;
}

export function decodeAdmitResponse(buf: Buffer): AdmitResponse__Output {
  const message: AdmitResponse__Output = {
    id: 0,
    uid: '',
    allowed: false,
    status: null,
    patch: EMPTY,
    warnings: [],
    auditAnnotations: {},
    sideEffects: [],
    error: null,
  };
  const r = new Decoder(buf, 0, buf.length);
  while (r.more) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (wire === VARINT) {
      if (field === 1) message.id = r.varint();
      else if (field === 3) message.allowed = r.varint() !== 0;
      else r.skip(wire, field);
    } else if (wire === LEN) {
      if (field === 2) message.uid = r.string();
      else if (field === 4) message.status = decodeStatus(r.nested());
      else if (field === 5) message.patch = r.bytes();
      else if (field === 6) message.warnings.push(r.string());
      else if (field === 7) decodeAnnotation(r.nested(), message.auditAnnotations);
      else if (field === 8) message.sideEffects.push(decodeSideEffect(r.nested()));
      else if (field === 9) message.error = decodeHookError(r.nested());
      else r.skip(wire, field);
    } else r.skip(wire, field);
  }
  return message;
}

function decodeStatus(r: Decoder): Status__Output {
  const status: Status__Output = { code: 0, reason: '', message: '' };
  while (r.more) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (wire === VARINT && field === 1) status.code = r.varint() | 0;
    else if (wire === LEN && field === 2) status.reason = r.string();
    else if (wire === LEN && field === 3) status.message = r.string();
    else r.skip(wire, field);
  }
  return status;
}

function decodeHookError(r: Decoder): HookError__Output {
  const error: HookError__Output = { code: 0, message: '' };
  while (r.more) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (wire === VARINT && field === 1) error.code = r.varint();
    else if (wire === LEN && field === 2) error.message = r.string();
    else r.skip(wire, field);
  }
  return error;
}

function decodeSideEffect(r: Decoder): SideEffect__Output {
  const effect: SideEffect__Output = { kind: '', key: '', payload: EMPTY };
  while (r.more) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (wire === LEN && field === 1) effect.kind = r.string();
    else if (wire === LEN && field === 2) effect.key = r.string();
    else if (wire === LEN && field === 3) effect.payload = r.bytes();
    else r.skip(wire, field);
  }
  return effect;
}

/** A map entry; a key that is a prototype member (`__proto__`) is set as an own property. */
function decodeAnnotation(r: Decoder, into: Record<string, string>): void {
  let key = '';
  let value = '';
  while (r.more) {
    const tag = r.varint();
    const field = tag >>> 3;
    const wire = tag & 7;
    if (wire === LEN && field === 1) key = r.string();
    else if (wire === LEN && field === 2) value = r.string();
    else r.skip(wire, field);
  }
  Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
}

function phaseName(value: number): Phase__Output {
  // An unknown enum value stays a number, as proto-loader leaves it.
  return PHASE_NAMES[value] ?? (value as unknown as Phase__Output);
}
