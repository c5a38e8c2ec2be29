/**
 * The HookRequest a handler receives. A class, so that per-call state is one object whose
 * extra arrays (side effects, warnings, annotations) are only allocated when used.
 */
import { cloneJsonValue, setOwnMember } from '@hookgate/admission';
import type {
  AdmissionRequest,
  GroupVersionKind,
  GroupVersionResource,
  JsonValue,
  Operation,
  UserInfo,
} from '@hookgate/admission';
import type { ProtoSideEffect } from '@hookgate/proto';
import type { RequestSource } from './decode-request.js';
import type { HookRequest, KubeObject, SideEffectPayload } from './types.js';

const NO_USER: UserInfo = Object.freeze({});

export class HookContext implements HookRequest<KubeObject> {
  sideEffects: ProtoSideEffect[] | undefined;
  warnings: string[] | undefined;
  annotations: Record<string, string> | undefined;
  readonly #source: RequestSource;
  /** A mutating hook gets its own copy of the object, made when first read (a handler that never reads it costs no copy). */
  readonly #ownCopy: boolean;
  #object: KubeObject | undefined;
  #objectRead = false;

  constructor(
    readonly hook: string,
    readonly phase: 'mutating' | 'validating',
    readonly round: 0 | 1,
    /** The request's uid at once; its metadata and its objects (possibly a parse of the whole review) on first read. */
    source: RequestSource,
    ownCopy: boolean,
  ) {
    this.#source = source;
    this.#ownCopy = ownCopy;
  }

  // The metadata, read from the head when asked for: a handler that reads none parses none.
  get uid(): string {
    return this.#source.uid;
  }

  get operation(): Operation {
    return this.#source.head.operation;
  }

  get kind(): GroupVersionKind {
    return this.#source.head.kind;
  }

  get resource(): GroupVersionResource {
    return this.#source.head.resource;
  }

  get subResource(): string {
    return this.#source.head.subResource ?? '';
  }

  get name(): string {
    return this.#source.head.name ?? '';
  }

  get namespace(): string {
    return this.#source.head.namespace ?? '';
  }

  get userInfo(): UserInfo {
    return this.#source.head.userInfo ?? NO_USER;
  }

  get dryRun(): boolean {
    return this.#source.head.dryRun === true;
  }

  get options(): JsonValue | undefined {
    return this.#source.head.options ?? undefined;
  }

  /** The whole request stanza (parsed on first read when the gateway sent its head apart). */
  get request(): AdmissionRequest {
    return this.#source.full();
  }

  /** The object as received, never changed: the patch of a mutating hook is computed against it. */
  get original(): KubeObject | undefined {
    return asObject(this.#source.full().object);
  }

  /** The handler's own copy in a mutating hook; the request's object otherwise. */
  get object(): KubeObject | undefined {
    if (!this.#objectRead) {
      const original = this.original;
      this.#object =
        this.#ownCopy && original !== undefined ? (cloneJsonValue(original as JsonValue) as KubeObject) : original;
      this.#objectRead = true;
    }
    return this.#object;
  }

  get oldObject(): KubeObject | undefined {
    return asObject(this.#source.full().oldObject);
  }

  reportSideEffect(kind: string, key: string, payload?: SideEffectPayload): void {
    if (typeof kind !== 'string' || kind === '' || typeof key !== 'string' || key === '') {
      throw new TypeError(
        `reportSideEffect(kind, key): both must be non-empty strings (hook ${JSON.stringify(this.hook)})`,
      );
    }
    (this.sideEffects ??= []).push({ kind, key, payload: encodePayload(payload) });
  }

  warn(message: string): void {
    (this.warnings ??= []).push(String(message));
  }

  annotate(key: string, value: string): void {
    // defineProperty: a key named `__proto__` (one copied from the request, say) is an annotation too.
    setOwnMember((this.annotations ??= {}), key, String(value));
  }
}

/** null (DELETE) and non-objects become undefined, so handlers test one thing. */
export function asObject(value: JsonValue | undefined): KubeObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as KubeObject) : undefined;
}

export function encodePayload(payload: SideEffectPayload | undefined): Buffer {
  if (payload === undefined) return EMPTY;
  if (payload instanceof Uint8Array) return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  if (typeof payload === 'string') return Buffer.from(payload, 'utf8');
  return Buffer.from(JSON.stringify(payload), 'utf8');
}

const EMPTY = Buffer.alloc(0);
