/**
 * Audit annotations (k8s-semantics.md §17): the keys and values the apiserver's dispatcher records,
 * the apiserver's key rule and first-wins recording, and the re-encoding Hookgate needs to hand
 * its inner hooks' annotations to the apiserver under its own webhook name.
 */
import type { DecodedPatch } from './patch/json-patch.js';
import { compactGoJson, encodeGoString } from './patch/go-json.js';
import { isQualifiedName } from './validation/names.js';
import { compareByteWise } from './byte-wise-order.js';

export const MUTATION_PREFIX = 'mutation.webhook.admission.k8s.io/';
export const PATCH_PREFIX = 'patch.webhook.admission.k8s.io/';
export const FAILED_OPEN_MUTATION_PREFIX = 'failed-open.mutation.webhook.admission.k8s.io/';
export const FAILED_OPEN_VALIDATING_PREFIX = 'failed-open.validating.webhook.admission.k8s.io/';

export type Round = 0 | 1;

export const mutationAnnotationKey = (round: Round, index: number): string =>
  `${MUTATION_PREFIX}round_${round}_index_${index}`;
export const patchAnnotationKey = (round: Round, index: number): string =>
  `${PATCH_PREFIX}round_${round}_index_${index}`;
export const failedOpenMutationKey = (round: Round, index: number): string =>
  `${FAILED_OPEN_MUTATION_PREFIX}round_${round}_index_${index}`;
/** k is the hook's position among the hooks that matched (relevant[]), not in the whole list (§14). */
export const failedOpenValidatingKey = (k: number): string => `${FAILED_OPEN_VALIDATING_PREFIX}round_0_index_${k}`;

/** `{"configuration":"<cfg>","webhook":"<name>","mutated":<bool>}`, as Go's json.Marshal writes it. */
export function mutationAnnotationValue(configuration: string, webhook: string, mutated: boolean): string {
  return `{"configuration":${encodeGoString(configuration)},"webhook":${encodeGoString(webhook)},"mutated":${mutated}}`;
}

/**
 * `{"configuration":..,"webhook":..,"patch":[..],"patchType":"JSONPatch"}`: the hook's operations
 * re-marshalled as Go does (each operation's keys sorted, member values compacted verbatim).
 */
export function patchAnnotationValue(configuration: string, webhook: string, patch: DecodedPatch): string {
  const operations = patch.operations.map((op) => {
    if (op === null) return 'null';
    // Go sorts map keys by their UTF-8 bytes.
    const keys = [...op.keys()].sort(compareByteWise);
    const members = keys.map((k) => {
      const raw = op.get(k);
      return `${encodeGoString(k)}:${raw === null || raw === undefined ? 'null' : compactGoJson(raw)}`;
    });
    return `{${members.join(',')}}`;
  });
  return (
    `{"configuration":${encodeGoString(configuration)},"webhook":${encodeGoString(webhook)},` +
    `"patch":[${operations.join(',')}],"patchType":"JSONPatch"}`
  );
}

// ---------------------------------------------------------------- the apiserver's key rule

/** admission/attributes.go checkKeyFormat: exactly one `/` and a qualified name. */
export function isValidAnnotationKey(key: string): boolean {
  return key.split('/').length === 2 && isQualifiedName(key).length === 0;
}

/**
 * One request's audit annotations, recorded like admission.Attributes.AddAnnotation: invalid keys
 * are refused, a key already recorded with another value keeps its first value.
 * Insertion order is recording order.
 */
export class AuditAnnotations {
  private readonly entries = new Map<string, string>();

  /** Returns why the annotation was not recorded, or undefined when it was (or was already). */
  add(key: string, value: string): 'invalid-key' | 'conflict' | undefined {
    if (!isValidAnnotationKey(key)) return 'invalid-key';
    const existing = this.entries.get(key);
    if (existing !== undefined && existing !== value) return 'conflict';
    this.entries.set(key, value);
    return undefined;
  }

  /** A hook's response.auditAnnotations, recorded as `<hook>/<key>`; returns the keys dropped. */
  addFromHook(hookName: string, annotations: Readonly<Record<string, string>> | undefined): string[] {
    const dropped: string[] = [];
    if (annotations === undefined || annotations === null || typeof annotations !== 'object') return dropped;
    for (const [k, v] of Object.entries(annotations)) {
      if (typeof v !== 'string' || this.add(`${hookName}/${k}`, v) !== undefined) dropped.push(k);
    }
    return dropped;
  }

  toRecord(): Record<string, string> {
    return Object.fromEntries(this.entries);
  }
}

// ---------------------------------------------------------------- re-encoding for the apiserver

/**
 * The apiserver records Hookgate's own auditAnnotations as `<hookgate-webhook-name>/<key>` and
 * accepts a key only if it has no `/` and is a qualified-name part: ≤63 chars of [A-Za-z0-9_.-],
 * alphanumeric at both ends. Inner keys are `<prefix>/<name>`, so they are re-encoded:
 *
 * 1. System keys drop the redundant `.webhook.admission.k8s.io` and use `_` for the `/`:
 *    `failed-open.validating.webhook.admission.k8s.io/round_0_index_12` → `failed-open.validating_round_0_index_12`,
 *    `mutation.webhook.admission.k8s.io/round_1_index_0` → `mutation_round_1_index_0`.
 * 2. Hook keys replace the `/` with `_`: `pod-policy.example.com/team` → `pod-policy.example.com_team`.
 *    The prefix is a DNS subdomain, which never contains `_`, so the first `_` marks the `/`.
 *    Short system prefixes (`mutation`, `patch`, `failed-open.mutation`, `failed-open.validating`)
 *    have fewer than the three labels every webhook name needs, so they cannot collide with (2).
 * 3. A key whose form (1)/(2) would exceed 63 chars (or is not a qualified name) becomes
 *    `<readable head>.<10 hex digits of a 64-bit FNV-1a hash of the inner key>` with every `_`
 *    turned into `.`: readable and unique, but not reversible (it has no `_`, so a reader can tell).
 *
 * decodeApiserverAnnotationKey reverses (1) and (2) and returns undefined for (3).
 * Patch annotations (`patch.webhook...`) are not forwarded unless asked: they may carry Secret data,
 * which the apiserver only logs at audit level Request, while Hookgate's keys are logged at Metadata.
 */
export interface EncodeAnnotationsOptions {
  readonly includePatchAnnotations?: boolean;
}

const SYSTEM_SUFFIX = '.webhook.admission.k8s.io';
const SHORT_SYSTEM_PREFIXES = ['mutation', 'patch', 'failed-open.mutation', 'failed-open.validating'] as const;
const MAX_NAME_LENGTH = 63;

export function encodeAnnotationsForApiserver(
  annotations: Readonly<Record<string, string>>,
  options: EncodeAnnotationsOptions = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key in annotations) {
    if (!Object.hasOwn(annotations, key)) continue;
    if (!options.includePatchAnnotations && key.startsWith(PATCH_PREFIX)) continue;
    const encoded = rememberedEncoding(key);
    // Distinct inner keys only meet here through a hash collision: first wins, like the apiserver.
    if (!Object.hasOwn(out, encoded)) out[encoded] = annotations[key]!;
  }
  return out;
}

/**
 * Every mutating review carries a `mutation.webhook…/round_R_index_I` key per hook, and encoding one
 * runs the qualified-name check: each key's encoding is remembered (about 0.5 % of a gateway
 * worker's CPU). Hooks choose their own keys, so the memory is bounded and starts afresh when full.
 */
const MAX_REMEMBERED_KEYS = 4096;
const rememberedKeys = new Map<string, string>();

function rememberedEncoding(key: string): string {
  let encoded = rememberedKeys.get(key);
  if (encoded === undefined) {
    if (rememberedKeys.size >= MAX_REMEMBERED_KEYS) rememberedKeys.clear();
    encoded = encodeAnnotationKey(key);
    rememberedKeys.set(key, encoded);
  }
  return encoded;
}

/** One inner key → a valid name part for the apiserver (see encodeAnnotationsForApiserver). */
export function encodeAnnotationKey(key: string): string {
  const slash = key.indexOf('/');
  let candidate: string | undefined;
  if (slash > 0 && slash === key.lastIndexOf('/')) {
    const prefix = key.slice(0, slash);
    const name = key.slice(slash + 1);
    const short = SHORT_SYSTEM_PREFIXES.find((p) => prefix === p + SYSTEM_SUFFIX);
    candidate = `${short ?? prefix}_${name}`;
  }
  if (candidate !== undefined && candidate.length <= MAX_NAME_LENGTH && isQualifiedName(candidate).length === 0) {
    return candidate;
  }
  return hashedKey(key);
}

/** Reverses forms (1) and (2); undefined for hashed keys (form 3) and anything else. */
export function decodeApiserverAnnotationKey(encoded: string): string | undefined {
  const underscore = encoded.indexOf('_');
  if (underscore <= 0) return undefined;
  const prefix = encoded.slice(0, underscore);
  const name = encoded.slice(underscore + 1);
  const isShort = (SHORT_SYSTEM_PREFIXES as readonly string[]).includes(prefix);
  return `${isShort ? prefix + SYSTEM_SUFFIX : prefix}/${name}`;
}

function hashedKey(key: string): string {
  const hash = fnv1a64(key).toString(16).padStart(16, '0').slice(0, 10);
  const readable = key
    .replace(/[^A-Za-z0-9.-]/g, '.')
    .slice(0, MAX_NAME_LENGTH - hash.length - 1)
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/[^A-Za-z0-9]+$/, '');
  return readable === '' ? `h${hash}` : `${readable}.${hash}`;
}

function fnv1a64(text: string): bigint {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash;
}
