/**
 * GET and LIST of any resource by group/version/resource, with the kubeconfig's server, TLS and
 * credentials (client-node's own request machinery), answering plain JSON objects: no typed
 * models, so it works for any resource, custom ones included, without discovery.
 *
 *   const api = resourceClient(loadKubeConfig({ mode: 'inCluster' }));
 *   const deployment = await api.get({ group: 'apps', version: 'v1', resource: 'deployments' }, 'web', { namespace: 'shop' });
 *   const pods = await api.list({ group: '', version: 'v1', resource: 'pods' }, { namespace: 'shop', labelSelector: 'app=web' });
 *   const { metadata } = await api.get(ref, 'web', { namespace: 'shop', metadataOnly: true });
 *
 * Reads are consistent: no resourceVersion parameter is sent, so the apiserver answers from etcd
 * with a quorum read (never from its watch cache), and an object written before the read is seen.
 *
 * `metadataOnly: true` asks for the PartialObjectMetadata (or ...List) representation, as
 * `kubectl get` does, with plain `application/json` as the fallback alternative in the same Accept
 * header (an aggregated apiserver may not serve the metadata form); either way the answer is a
 * PartialObjectMetadata (`metadata` only), so an object's spec and data never reach the caller.
 *
 * A non-2xx answer rejects with a KubernetesApiError (code HG_ERR_KUBERNETES_API): `status` is the
 * HTTP status, `body` the apiserver's Status (or its text), the message names the request and the
 * Status message only; `isNotFound(error)` tells a 404. A 2xx answer that is not an API object
 * rejects with HG_ERR_KUBERNETES_UNEXPECTED_ANSWER.
 */
import http from 'node:http';
import https from 'node:https';
import { HttpMethod, type ApiType, type Configuration, type KubeConfig } from '@kubernetes/client-node';
import type { KubernetesListObject, KubernetesObject, V1ObjectMeta } from '@kubernetes/client-node';
import { HG_ERR_KUBERNETES_API, HG_ERR_KUBERNETES_UNEXPECTED_ANSWER, isHookgateError } from '@hookgate/errors';
import { qualifiedResource, resourcePath, type ResourceRef } from './resource.js';

/** A non-2xx answer of the apiserver (HG_ERR_KUBERNETES_API). */
export class KubernetesApiError extends HG_ERR_KUBERNETES_API {
  override name = 'KubernetesApiError';
  /** The HTTP status. */
  readonly status: number;
  /** The request, `GET /api/v1/namespaces/shop`. */
  readonly request: string;
  /** The answer in one line: `HTTP 404: namespaces "shop" not found` (the Status message when there was one). */
  readonly answer: string;
  /** The apiserver's Status object, or the answer's text when it was not JSON. */
  readonly body: unknown;

  constructor(status: number, request: string, statusMessage: string | undefined, body: unknown) {
    const detail = statusMessage === undefined || statusMessage === '' ? '' : `: ${statusMessage}`;
    super(request, String(status), detail);
    this.status = status;
    this.request = request;
    this.answer = `HTTP ${status}${detail}`;
    this.body = body;
  }
}

/** A KubernetesApiError, told by its code and fields (not `instanceof`: two copies of the package give two classes). */
export function isKubernetesApiError(error: unknown): error is KubernetesApiError {
  return (
    isHookgateError(error, HG_ERR_KUBERNETES_API.code) &&
    typeof (error as Partial<KubernetesApiError>).status === 'number' &&
    typeof (error as Partial<KubernetesApiError>).answer === 'string'
  );
}

export interface GetOptions {
  readonly namespace?: string;
  /** Only the object's metadata (PartialObjectMetadata); see the module header. */
  readonly metadataOnly?: boolean;
  readonly signal?: AbortSignal;
}

/** What a metadata-only read answers: the object's metadata, as plain JSON. */
export interface PartialObjectMetadata extends KubernetesObject {
  readonly apiVersion: 'meta.k8s.io/v1';
  readonly kind: 'PartialObjectMetadata';
  readonly metadata: V1ObjectMeta;
}

export interface ListOptions {
  readonly namespace?: string;
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** Page size; follow `metadata.continue` with `continueToken`. */
  readonly limit?: number;
  readonly continueToken?: string;
  /** Only the items' metadata (a PartialObjectMetadataList); see the module header. */
  readonly metadataOnly?: boolean;
  readonly signal?: AbortSignal;
}

export interface ResourceClient {
  get(
    ref: ResourceRef,
    name: string,
    options: GetOptions & { readonly metadataOnly: true },
  ): Promise<PartialObjectMetadata>;
  get<T extends KubernetesObject = KubernetesObject>(ref: ResourceRef, name: string, options?: GetOptions): Promise<T>;
  list(
    ref: ResourceRef,
    options: ListOptions & { readonly metadataOnly: true },
  ): Promise<KubernetesListObject<PartialObjectMetadata>>;
  list<T extends KubernetesObject = KubernetesObject>(
    ref: ResourceRef,
    options?: ListOptions,
  ): Promise<KubernetesListObject<T>>;
}

const JSON_ONLY = 'application/json';
const METADATA_OR_JSON = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const METADATA_LIST_OR_JSON = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';

/**
 * client-node makes a new Agent for every request, so every read would open a connection (and do a
 * TLS handshake). One kept-alive agent per client instead, made again only when the credentials
 * the agent carries change (a rotated client certificate). Proxy agents are left as they are.
 */
function keepAliveAgents(): (made: http.Agent | undefined) => http.Agent | undefined {
  let kept: { agent: http.Agent; options: Record<string, unknown> } | undefined;
  const CREDENTIALS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'rejectUnauthorized', 'servername'];
  return (made) => {
    if (made === undefined) return undefined;
    const Agent =
      made.constructor === https.Agent ? https.Agent : made.constructor === http.Agent ? http.Agent : undefined;
    if (Agent === undefined) return made;
    const options = (made as unknown as { options: Record<string, unknown> }).options;
    if (kept === undefined || CREDENTIALS.some((name) => kept!.options[name] !== options[name])) {
      kept?.agent.destroy();
      kept = { agent: new Agent({ ...options, keepAlive: true }), options };
    }
    return kept.agent;
  };
}

/** The request machinery makeApiClient hands to an API class: base URL, auth (TLS, token), fetch. */
class RawApi implements ApiType {
  constructor(readonly configuration: Configuration) {}
}

export function resourceClient(kubeConfig: KubeConfig): ResourceClient {
  const { configuration } = kubeConfig.makeApiClient(RawApi);
  const keepAlive = keepAliveAgents();

  async function getJson(
    path: string,
    accept: string,
    query: Record<string, string | undefined>,
    signal?: AbortSignal,
  ): Promise<object> {
    const context = configuration.baseServer.makeRequestContext(path, HttpMethod.GET);
    context.setHeaderParam('Accept', accept);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) context.setQueryParam(key, value);
    if (signal !== undefined) context.setSignal(signal);
    await configuration.authMethods.default?.applySecurityAuthentication(context);
    const agent = keepAlive(context.getAgent());
    if (agent !== undefined) context.setAgent(agent);
    const response = await configuration.httpApi.send(context).toPromise();
    const text = await response.body.text();
    const body = parseJson(text);
    if (response.httpStatusCode < 200 || response.httpStatusCode > 299) {
      throw new KubernetesApiError(response.httpStatusCode, `GET ${path}`, statusMessage(body), body ?? text);
    }
    if (body === undefined || typeof body !== 'object' || body === null)
      throw new HG_ERR_KUBERNETES_UNEXPECTED_ANSWER(`GET ${path}`, 'the apiserver did not answer with a JSON object');
    return body;
  }

  return {
    async get<T extends KubernetesObject>(ref: ResourceRef, name: string, options: GetOptions = {}): Promise<T> {
      const path = resourcePath(ref, { namespace: options.namespace, name });
      if (options.metadataOnly !== true) return (await getJson(path, JSON_ONLY, {}, options.signal)) as T;
      const answer = (await getJson(path, METADATA_OR_JSON, {}, options.signal)) as KubernetesObject;
      return partialObjectMetadata(answer, `GET ${path}`) as unknown as T;
    },
    async list<T extends KubernetesObject>(ref: ResourceRef, options: ListOptions = {}) {
      const path = resourcePath(ref, { namespace: options.namespace });
      const metadataOnly = options.metadataOnly === true;
      const list = (await getJson(
        path,
        metadataOnly ? METADATA_LIST_OR_JSON : JSON_ONLY,
        {
          labelSelector: options.labelSelector,
          fieldSelector: options.fieldSelector,
          limit: options.limit === undefined ? undefined : String(options.limit),
          continue: options.continueToken,
        },
        options.signal,
      )) as KubernetesListObject<T>;
      if (!Array.isArray(list.items))
        throw new HG_ERR_KUBERNETES_UNEXPECTED_ANSWER(
          `GET ${path}`,
          `the apiserver answered no items list for ${qualifiedResource(ref)}`,
        );
      if (!metadataOnly) return list;
      const items = list.items.map((item) => partialObjectMetadata(item, `GET ${path}`));
      return {
        ...list,
        apiVersion: 'meta.k8s.io/v1',
        kind: 'PartialObjectMetadataList',
        items,
      } as unknown as KubernetesListObject<T>;
    },
  };
}

/**
 * The metadata of an answer, in the PartialObjectMetadata shape whether the apiserver served that
 * representation or fell back to the whole object (whose other fields are dropped here).
 */
function partialObjectMetadata(answer: KubernetesObject, request: string): PartialObjectMetadata {
  const { metadata } = answer;
  if (typeof metadata !== 'object' || metadata === null)
    throw new HG_ERR_KUBERNETES_UNEXPECTED_ANSWER(request, 'the apiserver answered an object without metadata');
  return { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata };
}

/** A 404 from the apiserver: the object (or the resource) does not exist. */
export function isNotFound(error: unknown): boolean {
  return isKubernetesApiError(error) && error.status === 404;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function statusMessage(body: unknown): string | undefined {
  const message = (body as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' && message !== '' ? message : undefined;
}
