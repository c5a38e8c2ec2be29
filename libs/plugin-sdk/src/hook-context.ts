/**
 * The HookRequest a handler receives. A class, so that per-call state is one object whose
 * extra arrays (side effects, warnings, annotations) are only allocated when used.
 */
import { cloneJsonValue } from '@hookgate/admission';
import type { AdmissionRequest, GroupVersionKind, GroupVersionResource, JsonValue, Operation, UserInfo } from '@hookgate/admission';
import type { ProtoSideEffect } from '@hookgate/proto';
import type { HookRequest, KubeObject, SideEffectPayload } from './types.js';

const NO_USER: UserInfo = Object.freeze({});

export class HookContext implements HookRequest<KubeObject> {
  readonly uid: string;
  readonly operation: Operation;
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  readonly subResource: string;
  readonly name: string;
  readonly namespace: string;
  readonly userInfo: UserInfo;
  readonly dryRun: boolean;
  readonly oldObject: KubeObject | undefined;
  readonly options: JsonValue | undefined;
  sideEffects: ProtoSideEffect[] | undefined;
  warnings: string[] | undefined;
  annotations: Record<string, string> | undefined;
  #object: KubeObject | undefined;
  /** Set while the handler's own copy is still to be made (on its first read of `object`). */
  #copyOnRead: boolean;

  constructor(
    readonly hook: string,
    readonly phase: 'mutating' | 'validating',
    readonly round: 0 | 1,
    readonly request: AdmissionRequest,
    /** The request's object. */
    object: KubeObject | undefined,
    /** A mutating hook gets its own copy, made when first read (a handler that never reads it costs no copy). */
    ownCopy: boolean,
  ) {
    this.uid = request.uid;
    this.operation = request.operation;
    this.kind = request.kind;
    this.resource = request.resource;
    this.subResource = request.subResource ?? '';
    this.name = request.name ?? '';
    this.namespace = request.namespace ?? '';
    this.userInfo = request.userInfo ?? NO_USER;
    this.dryRun = request.dryRun === true;
    this.#object = object;
    this.#copyOnRead = ownCopy && object !== undefined;
    this.oldObject = asObject(request.oldObject);
    this.options = request.options ?? undefined;
  }

  /** The handler's own copy in a mutating hook (the patch is computed against the untouched original); the request's object otherwise. */
  get object(): KubeObject | undefined {
    if (this.#copyOnRead) {
      this.#copyOnRead = false;
      this.#object = cloneJsonValue(this.#object as JsonValue) as KubeObject;
    }
    return this.#object;
  }

  reportSideEffect(kind: string, key: string, payload?: SideEffectPayload): void {
    if (typeof kind !== 'string' || kind === '' || typeof key !== 'string' || key === '') {
      throw new TypeError(`reportSideEffect(kind, key): both must be non-empty strings (hook ${JSON.stringify(this.hook)})`);
    }
    (this.sideEffects ??= []).push({ kind, key, payload: encodePayload(payload) });
  }

  warn(message: string): void {
    (this.warnings ??= []).push(String(message));
  }

  annotate(key: string, value: string): void {
    (this.annotations ??= {})[key] = String(value);
  }
}

/** null (DELETE) and non-objects become undefined, so handlers test one thing. */
export function asObject(value: JsonValue | undefined): KubeObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as KubeObject) : undefined;
}

function encodePayload(payload: SideEffectPayload | undefined): Buffer {
  if (payload === undefined) return EMPTY;
  if (payload instanceof Uint8Array) return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  if (typeof payload === 'string') return Buffer.from(payload, 'utf8');
  return Buffer.from(JSON.stringify(payload), 'utf8');
}

const EMPTY = Buffer.alloc(0);
