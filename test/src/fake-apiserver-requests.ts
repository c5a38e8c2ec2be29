/**
 * How the fake kube-apiserver reads a request: the route it names, content negotiation
 * (metadata-only reads), the body of a write and its dryRun, and label and field selectors.
 */
import type { IncomingMessage } from 'node:http';
import { badRequest } from './fake-apiserver-errors.js';
import { apiVersionOf } from './fake-apiserver-store.js';
import type { KubeObject, ResourceInfo } from './fake-apiserver-store.js';

export interface Route {
  readonly resource: ResourceInfo;
  readonly namespace?: string;
  readonly name?: string;
  readonly subresource?: string;
}

export type Selector = (object: KubeObject) => boolean;

/**
 * Content negotiation as the apiserver does it for JSON: the first media range that fits wins; a
 * metadata-only one fits when it names the kind this request returns (PartialObjectMetadataList
 * for a list, PartialObjectMetadata for a get or a watch); nothing that fits is 406.
 */
export function negotiate(accept: string | undefined, metadataKind: string): 'object' | 'metadata' | undefined {
  if (accept === undefined || accept.trim() === '') return 'object';
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((p) => p.trim());
    if (!['application/json', 'application/*', '*/*'].includes(type)) continue;
    const as = Object.fromEntries(params.map((p) => p.split('=').map((x) => x.trim()))) as Record<string, string>;
    if (as.as === undefined) return 'object';
    if (as.as === metadataKind && as.g === 'meta.k8s.io' && as.v === 'v1') return 'metadata';
  }
  return undefined;
}

/** The object as a metadata-only read returns it. */
export function partialMetadata(object: KubeObject) {
  return { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: object.metadata };
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function parseBody(text: string, optional: boolean): Record<string, unknown> | undefined {
  if (text.trim() === '') {
    if (optional) return undefined;
    throw badRequest('the request body is empty; send the object as JSON');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('the request body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw badRequest('the request body must be a JSON object');
  return body as Record<string, unknown>;
}

export function parseDryRun(value: string | undefined): boolean {
  if (value === undefined || value === '') return false;
  if (value === 'All') return true;
  throw badRequest(`dryRun: Unsupported value: "${value}": supported values: "All"`);
}

/** The body of a POST or PUT must be an object of the path's resource, namespace and name. */
export function checkObject(body: Record<string, unknown> | undefined, route: Route): KubeObject {
  const { resource, namespace, name } = route;
  const metadata = body?.metadata;
  if (body === undefined || typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    throw badRequest('the object has no metadata');
  const object = structuredClone(body) as KubeObject;
  const apiVersion = object.apiVersion ?? apiVersionOf(resource);
  const kind = object.kind ?? resource.kind;
  if (apiVersion !== apiVersionOf(resource) || kind !== resource.kind)
    throw badRequest(`the body is a ${apiVersion} ${kind}, the URL is for ${apiVersionOf(resource)} ${resource.kind}`);
  if (resource.namespaced) {
    if (object.metadata.namespace !== undefined && object.metadata.namespace !== namespace)
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    object.metadata.namespace = namespace;
  }
  if (name !== undefined) {
    object.metadata.name ??= name;
    if (object.metadata.name !== name)
      throw badRequest(`the name of the object (${object.metadata.name}) does not match the name on the URL (${name})`);
  }
  return object;
}

/** labelSelector (=, ==, !=, in, notin, exists, !exists) and fieldSelector (metadata.name/namespace) as one predicate. */
export function parseSelectors(
  labelSelector: string | undefined,
  fieldSelector: string | undefined,
): Selector | undefined {
  const tests: Selector[] = [];
  for (const term of splitTerms(labelSelector)) {
    const set = /^([^\s!=]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
    const cmp = /^([^\s!=]+)\s*(==|=|!=)\s*(\S*)$/.exec(term);
    const exists = /^(!?)([^\s!=(),]+)$/.exec(term);
    if (set) {
      const [, key, op, values] = set as unknown as [string, string, string, string];
      const allowed = values.split(',').map((v) => v.trim());
      tests.push(
        (o) => (op === 'in') === (o.metadata.labels?.[key] !== undefined && allowed.includes(o.metadata.labels[key]!)),
      );
    } else if (cmp) {
      const [, key, op, value] = cmp as unknown as [string, string, string, string];
      tests.push((o) => (o.metadata.labels?.[key] === value) === (op !== '!='));
    } else if (exists) {
      const [, bang, key] = exists as unknown as [string, string, string];
      tests.push((o) => (o.metadata.labels?.[key] !== undefined) === (bang === ''));
    } else return undefined;
  }
  for (const term of splitTerms(fieldSelector)) {
    const cmp = /^(metadata\.name|metadata\.namespace)\s*(==|=|!=)\s*(\S*)$/.exec(term);
    if (!cmp) return undefined;
    const [, field, op, value] = cmp as unknown as [string, string, string, string];
    const read = (o: KubeObject) => (field === 'metadata.name' ? o.metadata.name : (o.metadata.namespace ?? ''));
    tests.push((o) => (read(o) === value) === (op !== '!='));
  }
  return (o) => tests.every((t) => t(o));
}

/** Split on commas outside parentheses. */
function splitTerms(selector: string | undefined): string[] {
  if (!selector) return [];
  const terms: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === ',' && depth === 0) {
      terms.push(current.trim());
      current = '';
    } else current += ch;
  }
  terms.push(current.trim());
  return terms.filter(Boolean);
}
