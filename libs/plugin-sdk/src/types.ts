/**
 * The public shapes of a plugin: hooks declared by name, the request a handler receives, and what
 * it may answer. Handlers return values; the SDK turns them into AdmitResponses.
 */
import type {
  AdmissionRequest,
  GroupVersionKind,
  GroupVersionResource,
  JsonValue,
  Operation,
  PatchOperation,
  UserInfo,
} from '@hookgate/admission';

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: unknown[];
  finalizers?: string[];
  [field: string]: unknown;
}

/** Any Kubernetes object, as decoded JSON. Declare your own type (`HookRequest<Pod>`) for more. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

export type SideEffectPayload = Uint8Array | string | JsonValue;

/** What a handler receives: the AdmissionRequest, decoded once, plus ways to report extra results. */
export interface HookRequest<T extends object = KubeObject> {
  /** The webhook name this call is for. */
  readonly hook: string;
  readonly phase: 'mutating' | 'validating';
  /** 0, or 1 when reinvoked (reinvocationPolicy IfNeeded): mutate idempotently. */
  readonly round: 0 | 1;
  readonly uid: string;
  readonly operation: Operation;
  readonly kind: GroupVersionKind;
  readonly resource: GroupVersionResource;
  /** '' when the request is for the resource itself. */
  readonly subResource: string;
  /** '' when the object has no name yet (generateName) */
  readonly name: string;
  /** '' for cluster-scoped objects. */
  readonly namespace: string;
  readonly userInfo: UserInfo;
  readonly dryRun: boolean;
  /**
   * The object (absent for DELETE and some CONNECT). In a mutating hook it is your own copy:
   * change it in place or build a new one, and return it.
   */
  readonly object: T | undefined;
  /** The existing object on UPDATE and DELETE. Do not modify it. */
  readonly oldObject: T | undefined;
  readonly options: JsonValue | undefined;
  /** The whole request stanza, for fields not surfaced above (requestKind, ...). Read-only. */
  readonly request: Readonly<AdmissionRequest>;
  /**
   * Records an out-of-band change this hook made (a reservation, a quota entry...). The gateway
   * queues it and the plugin's `reconcile` handler is called once the request's outcome is known.
   * Only for hooks declared with sideEffects Some/NoneOnDryRun; on a dryRun request make no change.
   */
  reportSideEffect(kind: string, key: string, payload?: SideEffectPayload): void;
  /** Adds a warning shown to the API client (kubectl prints it). */
  warn(message: string): void;
  /** Adds an audit annotation (the gateway prefixes the key with the hook name). */
  annotate(key: string, value: string): void;
}

export interface Allow {
  readonly allowed: true;
  readonly warnings?: readonly string[];
}

export interface Deny {
  readonly allowed: false;
  /** Shown as `admission webhook "<hook>" denied the request: <message>`. */
  readonly message: string;
  /** HTTP code, 403 by default; codes below 400 become 400. */
  readonly code?: number;
  /** A metav1.StatusReason, 'Forbidden' by default. */
  readonly reason?: string;
  readonly warnings?: readonly string[];
}

export type ValidateResult = Allow | Deny;

export interface ExplicitPatch {
  /** RFC 6902 operations against the object the hook received. */
  readonly patch: readonly PatchOperation[];
  readonly warnings?: readonly string[];
}

/**
 * A mutating handler answers with the modified object (the SDK computes the JSON Patch),
 * an explicit patch, a denial, `{ allowed: true }`, or nothing (no change).
 */
export type MutateResult<T extends object = KubeObject> = T | ExplicitPatch | Deny | Allow | undefined | void;

type MaybePromise<T> = T | Promise<T>;

export interface MutatingHookSpec<T extends object = KubeObject> {
  readonly phase: 'mutating';
  mutate(request: HookRequest<T>): MaybePromise<MutateResult<T>>;
}

export interface ValidatingHookSpec<T extends object = KubeObject> {
  readonly phase: 'validating';
  validate(request: HookRequest<T>): MaybePromise<ValidateResult>;
}

// `any` lets each hook declare its own object type (HookRequest<Pod>) inside one record.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type HookSpec = MutatingHookSpec<any> | ValidatingHookSpec<any>;

export type ReconcileOutcome = 'PERSISTED' | 'NOT_PERSISTED' | 'UNKNOWN';

export interface AdmissionSummary {
  readonly uid: string;
  readonly operation: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subResource: string;
  readonly namespace: string;
  readonly name: string;
  /** The gateway's final decision for the request. */
  readonly allowed: boolean;
  readonly dryRun: boolean;
}

export interface ReconcileRequest<T extends object = KubeObject> {
  readonly hook: string;
  readonly sideEffect: { readonly kind: string; readonly key: string; readonly payload: Buffer };
  /** PERSISTED: keep the change; NOT_PERSISTED: undo it; UNKNOWN: decide conservatively. */
  readonly outcome: ReconcileOutcome;
  /** The object's current state, when it exists. */
  readonly object: T | undefined;
  readonly admission: AdmissionSummary | undefined;
  /** 1 on the first attempt. */
  readonly attempt: number;
}

export interface ReconcileResult {
  readonly done: boolean;
  readonly message?: string;
  /** When not done: ask to be called again after this delay. */
  readonly retryAfterMs?: number;
}

/** The object a held effect belongs to (`resource` is the plural, as in HookRequest.resource). */
export interface HeldObjectRef {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  /** '' for cluster-scoped objects. */
  readonly namespace: string;
  readonly name: string;
  /** The object's uid when known: another uid under the name then counts as replaced. */
  readonly uid?: string;
}

/** One out-of-band effect the plugin holds, as its resync `list` handler returns it. */
export interface HeldEffect {
  readonly hook: string;
  readonly sideEffect: { readonly kind: string; readonly key: string; readonly payload?: SideEffectPayload };
  readonly object: HeldObjectRef;
  /** When the effect was last written (ms since the epoch); young effects are left alone. */
  readonly sinceMs: number;
}

export interface HeldEffectsPage {
  readonly effects: readonly HeldEffect[];
  /** Absent or '' on the last page. */
  readonly nextPageToken?: string;
}

export interface ListHeldRequest {
  /** '' for the first page. */
  readonly pageToken: string;
  /** Answer at most this many effects. */
  readonly pageSize: number;
}

/** A held effect whose object is gone or replaced, as the controller found it. */
export interface OrphanRequest {
  readonly held: {
    readonly hook: string;
    /** The payload as listed, as bytes. */
    readonly sideEffect: { readonly kind: string; readonly key: string; readonly payload: Buffer };
    readonly object: Required<HeldObjectRef>;
    readonly sinceMs: number;
  };
  /** absent: no object under the name; replaced: an object of another uid (`observedUid`). */
  readonly reason: 'absent' | 'replaced';
  readonly observedUid: string;
}

/**
 * Periodic resync: the controller lists what the plugin holds and hands back each effect whose
 * object is gone or replaced. Both handlers are called at least once per effect: be idempotent,
 * and change nothing in `reconcileOrphan` when the effect changed since it was listed.
 */
export interface ResyncSpec {
  list(request: ListHeldRequest): MaybePromise<HeldEffectsPage>;
  reconcileOrphan(request: OrphanRequest): MaybePromise<ReconcileResult | undefined | void>;
}

export interface PluginSpec {
  /** The name webhooks reference as `clientConfig.plugin`. */
  readonly name: string;
  /** Hooks by webhook name (the `webhooks[].name` of the configuration). */
  readonly hooks: Readonly<Record<string, HookSpec>>;
  /** Called for each side effect a hook reported; returning nothing means done. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  reconcile?(request: ReconcileRequest<any>): MaybePromise<ReconcileResult | undefined | void>;
  /** Periodic resync (ListHeldEffects and ReconcileOrphan); without it they answer UNIMPLEMENTED. */
  readonly resync?: ResyncSpec;
}

/** A checked, frozen plugin definition, ready for servePlugin. */
export interface Plugin {
  readonly name: string;
  readonly hooks: ReadonlyMap<string, HookSpec>;
  readonly reconcile: PluginSpec['reconcile'];
  readonly resync: ResyncSpec | undefined;
}
