/**
 * Validation of Mutating/ValidatingWebhookConfiguration objects as written by users, with the
 * apiserver's rules and wording (kubernetes pkg/apis/admissionregistration/validation/validation.go,
 * apiserver util/webhook/validation.go), version-aware (§20): it reports every problem at once,
 * never throws, and ignores unknown fields. Values of the wrong JSON type, which Go would refuse to
 * decode, are reported as Invalid at their path.
 *
 * Rules are those for *creating* an object (no update ratcheting), as the apiserver runs them after
 * defaulting: a field that defaulting fills in is therefore not "required" here.
 */
import { isPlainObject as isObject } from '../own-members.js';
import { goParseUrl } from '../go-url.js';
import { decodeBase64 } from '../review/base64.js';
import { checkMatchConditionExpression } from '../match/cel.js';
import {
  duplicate,
  invalid,
  notSupported,
  required,
  root,
  tooMany,
  type FieldError,
  type FieldPath,
} from '../validation/field-path.js';
import {
  byteLength,
  isDns1035Label,
  isDns1123Subdomain,
  isQualifiedName,
  validateFullyQualifiedName,
  validateLabels,
  validateLabelSelector,
} from '../validation/names.js';
import type { ConfigApiVersion, ConfigKind } from '../types/webhook-configuration.js';

export interface ValidateOptions {
  /** Also accept `http://` URLs to 127.0.0.0/8, ::1 and localhost (local development only). */
  readonly allowHttpLoopback?: boolean;
  /** When given, `clientConfig.plugin` must name one of these. */
  readonly knownPlugins?: ReadonlySet<string>;
}

export const CONFIG_API_VERSIONS: readonly ConfigApiVersion[] = [
  'admissionregistration.k8s.io/v1',
  'admissionregistration.k8s.io/v1beta1',
];
export const CONFIG_KINDS: readonly ConfigKind[] = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];
const ACCEPTED_REVIEW_VERSIONS = ['v1', 'v1beta1'];
const MAX_MATCH_CONDITIONS = 64;
const MAX_ANNOTATIONS_BYTES = 256 * 1024;

// sets.NewString(...).List(): every list of supported values is sorted.
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const FAILURE_POLICIES = ['Fail', 'Ignore'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];
const REINVOCATION_POLICIES = ['IfNeeded', 'Never'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const SIDE_EFFECTS_V1 = ['None', 'NoneOnDryRun'];
const SIDE_EFFECTS_ALL = ['None', 'NoneOnDryRun', 'Some', 'Unknown'];

const given = (v: unknown): boolean => v !== undefined && v !== null;

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'a list';
  if (v === null) return 'null';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** A list of strings, or the errors saying why not (Go would refuse to decode it). */
function stringList(v: unknown, path: FieldPath, errs: FieldError[]): string[] | undefined {
  if (!given(v)) return [];
  if (!Array.isArray(v)) {
    errs.push(invalid(path, v, `must be a list of strings, got ${describe(v)}`));
    return undefined;
  }
  let ok = true;
  v.forEach((item, i) => {
    if (typeof item !== 'string') {
      errs.push(invalid(path.index(i), item, `must be a string, got ${describe(item)}`));
      ok = false;
    }
  });
  return ok ? (v as string[]) : undefined;
}

function optionalString(v: unknown, path: FieldPath, errs: FieldError[]): string | undefined {
  if (!given(v)) return undefined;
  if (typeof v !== 'string') {
    errs.push(invalid(path, v, `must be a string, got ${describe(v)}`));
    return undefined;
  }
  return v;
}

function enumValue(v: unknown, path: FieldPath, supported: readonly string[], errs: FieldError[]): void {
  if (!given(v)) return;
  if (typeof v !== 'string' || !supported.includes(v)) errs.push(notSupported(path, v, supported));
}

// ---------------------------------------------------------------- metadata

function validateMetadata(meta: unknown, errs: FieldError[]): void {
  const path = root('metadata');
  if (!isObject(meta)) {
    if (given(meta)) errs.push(invalid(path, meta, `must be an object, got ${describe(meta)}`));
    else errs.push(required(path.child('name'), 'name or generateName is required'));
    return;
  }
  const name = meta['name'];
  if (!given(name) || name === '') {
    errs.push(required(path.child('name'), 'name or generateName is required'));
  } else if (typeof name !== 'string') {
    errs.push(invalid(path.child('name'), name, 'must be a string'));
  } else {
    for (const msg of isDns1123Subdomain(name)) errs.push(invalid(path.child('name'), name, msg));
  }
  // A namespace on this cluster-scoped kind is cleared by the apiserver before validation
  // (rest.BeforeCreate), not refused: it is ignored here too.
  errs.push(...validateLabels(meta['labels'], path.child('labels')));
  const annotations = meta['annotations'];
  if (given(annotations)) {
    if (!isObject(annotations)) {
      errs.push(invalid(path.child('annotations'), annotations, 'must be a map of strings'));
    } else {
      let size = 0;
      for (const [k, v] of Object.entries(annotations)) {
        for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(path.child('annotations'), k, msg));
        if (typeof v !== 'string') errs.push(invalid(path.child('annotations').key(k), v, 'must be a string'));
        // Go counts bytes.
        size += byteLength(k) + (typeof v === 'string' ? byteLength(v) : 0);
      }
      if (size > MAX_ANNOTATIONS_BYTES) {
        errs.push({
          type: 'FieldValueTooLong',
          field: path.child('annotations').toString(),
          detail: `may not be more than ${MAX_ANNOTATIONS_BYTES} bytes`,
        });
      }
    }
  }
}

// ---------------------------------------------------------------- rules

function validateResources(resources: readonly string[], path: FieldPath, errs: FieldError[]): void {
  if (resources.length === 0) errs.push(required(path));
  const withWildcardSub = new Set<string>(); // x/*
  const subWithWildcardRes = new Set<string>(); // */x
  let hasDoubleWildcard = false;
  let hasSingleWildcard = false;
  let hasResourceWithoutSubresource = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errs.push(required(path.index(i)));
      return;
    }
    if (resSub === '*/*') hasDoubleWildcard = true;
    if (resSub === '*') hasSingleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      // The apiserver assigns (not accumulates) here: only the last plain entry counts. Kept
      // as-is so Hookgate accepts exactly what the apiserver accepts (e.g. ["pods", "*"]).
      hasResourceWithoutSubresource = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (withWildcardSub.has(res))
      errs.push(invalid(path.index(i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subWithWildcardRes.has(sub))
      errs.push(invalid(path.index(i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') withWildcardSub.add(res);
    if (res === '*') subWithWildcardRes.add(sub);
  });
  if (resources.length > 1 && hasDoubleWildcard) {
    errs.push(invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  }
  if (hasSingleWildcard && hasResourceWithoutSubresource) {
    errs.push(invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  }
}

/** One webhook rule (RuleWithOperations) as the apiserver validates it; every problem at its path. */
export function validateRule(rule: unknown, path: FieldPath, errs: FieldError[]): void {
  if (!isObject(rule)) {
    errs.push(invalid(path, rule, `must be an object, got ${describe(rule)}`));
    return;
  }
  const operations = stringList(rule['operations'], path.child('operations'), errs);
  if (operations !== undefined) {
    if (operations.length === 0) errs.push(required(path.child('operations')));
    if (operations.length > 1 && operations.includes('*')) {
      // Go prints the internal type of the value: Operations is []admissionregistration.OperationType.
      errs.push({
        ...invalid(path.child('operations'), operations, "if '*' is present, must not specify other operations"),
        badValueType: '[]admissionregistration.OperationType',
      });
    }
    operations.forEach((op, i) => {
      if (!OPERATIONS.includes(op)) errs.push(notSupported(path.child('operations').index(i), op, OPERATIONS));
    });
  }
  const groups = stringList(rule['apiGroups'], path.child('apiGroups'), errs);
  if (groups !== undefined) {
    if (groups.length === 0) errs.push(required(path.child('apiGroups')));
    if (groups.length > 1 && groups.includes('*')) {
      errs.push(invalid(path.child('apiGroups'), groups, "if '*' is present, must not specify other API groups"));
    }
  }
  const versions = stringList(rule['apiVersions'], path.child('apiVersions'), errs);
  if (versions !== undefined) {
    if (versions.length === 0) errs.push(required(path.child('apiVersions')));
    if (versions.length > 1 && versions.includes('*')) {
      errs.push(invalid(path.child('apiVersions'), versions, "if '*' is present, must not specify other API versions"));
    }
    versions.forEach((v, i) => {
      if (v === '') errs.push(required(path.child('apiVersions').index(i)));
    });
  }
  const resources = stringList(rule['resources'], path.child('resources'), errs);
  if (resources !== undefined) validateResources(resources, path.child('resources'), errs);
  enumValue(rule['scope'], path.child('scope'), SCOPES, errs);
}

// ---------------------------------------------------------------- clientConfig

function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon >= 0 ? host.slice(0, colon) : host;
}

function isLoopbackHost(host: string): boolean {
  const name = hostnameOf(host).toLowerCase();
  if (name === 'localhost' || name === '::1') return true;
  const octets = name.split('.');
  return octets.length === 4 && octets[0] === '127' && octets.every((o) => /^\d{1,3}$/.test(o) && Number(o) <= 255);
}

/** webhook.ValidateWebhookURL(path, url, forceHttps=true), plus Hookgate's opt-in loopback http. */
function validateWebhookUrl(raw: string, path: FieldPath, opts: ValidateOptions, errs: FieldError[]): void {
  const form = '; desired format: https://host[/path]';
  const parsed = goParseUrl(raw);
  if (!parsed.ok) {
    errs.push(required(path, `url must be a valid URL: ${parsed.error}${form}`));
    return;
  }
  const u = parsed.url;
  const loopbackHttp = opts.allowHttpLoopback === true && u.scheme === 'http' && isLoopbackHost(u.host);
  if (u.scheme !== 'https' && !loopbackHttp) {
    errs.push(invalid(path, u.scheme, `'https' is the only allowed URL scheme${form}`));
  }
  if (u.host.length === 0) errs.push(invalid(path, u.host, `host must be specified${form}`));
  if (u.user !== undefined) errs.push(invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment.length > 0) errs.push(invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery.length > 0) errs.push(invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
}

/** webhook.ValidateWebhookService. */
function validateService(service: unknown, path: FieldPath, errs: FieldError[]): void {
  if (!isObject(service)) {
    errs.push(invalid(path, service, `must be an object, got ${describe(service)}`));
    return;
  }
  const name = optionalString(service['name'], path.child('name'), errs);
  if (given(service['name']) && name === undefined) {
    // type error already reported
  } else if (!name) {
    errs.push(required(path.child('name'), 'service name is required'));
  }
  const namespace = optionalString(service['namespace'], path.child('namespace'), errs);
  if (given(service['namespace']) && namespace === undefined) {
    // type error already reported
  } else if (!namespace) {
    errs.push(required(path.child('namespace'), 'service namespace is required'));
  }
  const port = service['port'];
  if (given(port)) {
    if (typeof port !== 'number' || !Number.isInteger(port)) {
      errs.push(invalid(path.child('port'), port, 'must be an integer'));
    } else if (port < 1 || port > 65535) {
      errs.push(invalid(path.child('port'), port, 'port is not valid: must be between 1 and 65535, inclusive'));
    }
  }
  const urlPath = optionalString(service['path'], path.child('path'), errs);
  if (urlPath === undefined || urlPath === '' || urlPath === '/') return;
  const p = path.child('path');
  if (urlPath === '//') {
    errs.push(invalid(p, urlPath, 'segment[0] may not be empty'));
    return;
  }
  if (!urlPath.startsWith('/')) errs.push(invalid(p, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(invalid(p, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDns1123Subdomain(step)) errs.push(invalid(p, urlPath, `segment[${i}]: ${failure}`));
  });
}

function validateClientConfig(cc: unknown, path: FieldPath, opts: ValidateOptions, errs: FieldError[]): void {
  if (!isObject(cc)) {
    if (given(cc)) errs.push(invalid(path, cc, `must be an object, got ${describe(cc)}`));
    else errs.push(required(path, 'exactly one of url or service is required'));
    return;
  }
  const hasUrl = given(cc['url']);
  const hasService = given(cc['service']);
  const hasPlugin = given(cc['plugin']);
  const count = Number(hasUrl) + Number(hasService) + Number(hasPlugin);
  if (count !== 1) {
    // The apiserver's wording, unless Hookgate's plugin extension is involved.
    const detail = hasPlugin
      ? 'exactly one of url, service or plugin is required'
      : 'exactly one of url or service is required';
    errs.push(required(path, detail));
  } else if (hasUrl) {
    const url = optionalString(cc['url'], path.child('url'), errs);
    if (url !== undefined) validateWebhookUrl(url, path.child('url'), opts, errs);
  } else if (hasService) {
    validateService(cc['service'], path.child('service'), errs);
  } else {
    const plugin = optionalString(cc['plugin'], path.child('plugin'), errs);
    if (plugin === '') errs.push(required(path.child('plugin'), 'plugin name is required'));
    else if (plugin !== undefined && opts.knownPlugins !== undefined && !opts.knownPlugins.has(plugin)) {
      // With no plugin declared at all, an empty "supported values" list would not say what to do.
      errs.push(
        opts.knownPlugins.size === 0
          ? invalid(path.child('plugin'), plugin, 'no plugin is declared to serve it')
          : notSupported(path.child('plugin'), plugin, [...opts.knownPlugins].sort()),
      );
    }
  }
  const caBundle = cc['caBundle'];
  if (given(caBundle)) {
    if (typeof caBundle !== 'string') {
      errs.push(invalid(path.child('caBundle'), caBundle, 'must be a base64-encoded PEM bundle (a string)'));
    } else {
      const decoded = decodeBase64(caBundle);
      if (!decoded.ok)
        errs.push({
          type: 'FieldValueInvalid',
          field: path.child('caBundle').toString(),
          detail: `must be base64-encoded: ${decoded.error}`,
        });
    }
  }
}

// ---------------------------------------------------------------- matchConditions

function validateMatchConditions(conditions: unknown, path: FieldPath, errs: FieldError[]): void {
  if (!given(conditions)) return;
  if (!Array.isArray(conditions)) {
    errs.push(invalid(path, conditions, `must be a list, got ${describe(conditions)}`));
    return;
  }
  if (conditions.length > MAX_MATCH_CONDITIONS) errs.push(tooMany(path, conditions.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  conditions.forEach((c: unknown, i: number) => {
    const p = path.index(i);
    if (!isObject(c)) {
      errs.push(invalid(p, c, `must be an object, got ${describe(c)}`));
      return;
    }
    const expression = optionalString(c['expression'], p.child('expression'), errs);
    const trimmed = (expression ?? '').trim();
    if (trimmed.length === 0) {
      if (!given(c['expression']) || expression !== undefined) errs.push(required(p.child('expression')));
    } else {
      const problem = checkMatchConditionExpression(trimmed);
      if (problem !== undefined) errs.push(invalid(p.child('expression'), trimmed, problem));
    }
    const name = optionalString(c['name'], p.child('name'), errs);
    if (name === undefined || name === '') {
      if (!given(c['name']) || name === '') errs.push(required(p.child('name')));
    } else {
      for (const msg of isQualifiedName(name)) errs.push(invalid(p.child('name'), name, msg));
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
    }
  });
}

// ---------------------------------------------------------------- one webhook

function validateAdmissionReviewVersions(versions: unknown, isV1: boolean, path: FieldPath, errs: FieldError[]): void {
  const list = stringList(versions, path, errs);
  if (list === undefined) return;
  if (list.length === 0) {
    // v1beta1 defaults an empty list to ["v1beta1"].
    if (isV1) errs.push(required(path, `must specify one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
    return;
  }
  const seen = new Set<string>();
  let accepted = false;
  list.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(invalid(path.index(i), v, 'duplicate version'));
      return;
    }
    seen.add(v);
    for (const msg of isDns1035Label(v)) errs.push(invalid(path.index(i), v, msg));
    if (ACCEPTED_REVIEW_VERSIONS.includes(v)) accepted = true;
  });
  if (!accepted) errs.push(invalid(path, list, `must include at least one of ${ACCEPTED_REVIEW_VERSIONS.join(', ')}`));
}

function validateWebhook(
  w: unknown,
  path: FieldPath,
  version: ConfigApiVersion,
  mutating: boolean,
  opts: ValidateOptions,
  errs: FieldError[],
): void {
  if (!isObject(w)) {
    errs.push(invalid(path, w, `must be an object, got ${describe(w)}`));
    return;
  }
  const isV1 = version === 'admissionregistration.k8s.io/v1';
  errs.push(...validateFullyQualifiedName(w['name'], path.child('name')));

  const rules = w['rules'];
  if (given(rules)) {
    if (!Array.isArray(rules)) errs.push(invalid(path.child('rules'), rules, `must be a list, got ${describe(rules)}`));
    else rules.forEach((r: unknown, i: number) => validateRule(r, path.child('rules').index(i), errs));
  }
  enumValue(w['failurePolicy'], path.child('failurePolicy'), FAILURE_POLICIES, errs);
  enumValue(w['matchPolicy'], path.child('matchPolicy'), MATCH_POLICIES, errs);

  const allowedSideEffects = isV1 ? SIDE_EFFECTS_V1 : SIDE_EFFECTS_ALL;
  if (!given(w['sideEffects'])) {
    // v1beta1 defaults a missing sideEffects to Unknown.
    if (isV1) errs.push(required(path.child('sideEffects'), `must specify one of ${allowedSideEffects.join(', ')}`));
  } else {
    enumValue(w['sideEffects'], path.child('sideEffects'), allowedSideEffects, errs);
  }

  const timeout = w['timeoutSeconds'];
  if (given(timeout)) {
    if (typeof timeout !== 'number' || !Number.isInteger(timeout)) {
      errs.push(invalid(path.child('timeoutSeconds'), timeout, 'must be an integer'));
    } else if (timeout > 30 || timeout < 1) {
      errs.push(invalid(path.child('timeoutSeconds'), timeout, 'the timeout value must be between 1 and 30 seconds'));
    }
  }
  errs.push(...validateLabelSelector(w['namespaceSelector'], path.child('namespaceSelector')));
  errs.push(...validateLabelSelector(w['objectSelector'], path.child('objectSelector')));
  // Validating webhooks have no reinvocationPolicy: the field is unknown there, so ignored.
  if (mutating) enumValue(w['reinvocationPolicy'], path.child('reinvocationPolicy'), REINVOCATION_POLICIES, errs);
  validateClientConfig(w['clientConfig'], path.child('clientConfig'), opts, errs);
  validateMatchConditions(w['matchConditions'], path.child('matchConditions'), errs);
}

// ---------------------------------------------------------------- the configuration

/**
 * Every problem of a webhook configuration object (parsed YAML/JSON), as FieldErrors with
 * apiserver paths and wording. An empty list means the apiserver would accept it on create.
 */
export function validateConfiguration(obj: unknown, opts: ValidateOptions = {}): FieldError[] {
  const errs: FieldError[] = [];
  if (!isObject(obj)) {
    return [
      invalid(
        '',
        describe(obj),
        'a webhook configuration must be an object with apiVersion, kind, metadata and webhooks',
      ),
    ];
  }
  const apiVersion = obj['apiVersion'];
  const kind = obj['kind'];
  if (!given(apiVersion) || apiVersion === '')
    errs.push(required('apiVersion', `must be one of ${CONFIG_API_VERSIONS.join(', ')}`));
  else if (!(CONFIG_API_VERSIONS as readonly unknown[]).includes(apiVersion))
    errs.push(notSupported('apiVersion', apiVersion, CONFIG_API_VERSIONS));
  if (!given(kind) || kind === '') errs.push(required('kind', `must be one of ${CONFIG_KINDS.join(', ')}`));
  else if (!(CONFIG_KINDS as readonly unknown[]).includes(kind)) errs.push(notSupported('kind', kind, CONFIG_KINDS));
  // Without a known version and kind, which rules apply is unknown.
  if (errs.length > 0) return errs;
  const version = apiVersion as ConfigApiVersion;
  const mutating = kind === 'MutatingWebhookConfiguration';
  const isV1 = version === 'admissionregistration.k8s.io/v1';

  validateMetadata(obj['metadata'], errs);

  const webhooks = obj['webhooks'];
  if (!given(webhooks)) return errs;
  if (!Array.isArray(webhooks)) {
    errs.push(invalid('webhooks', webhooks, `must be a list, got ${describe(webhooks)}`));
    return errs;
  }
  const names = new Set<string>();
  webhooks.forEach((w: unknown, i: number) => {
    const path = root('webhooks').index(i);
    validateWebhook(w, path, version, mutating, opts, errs);
    if (!isObject(w)) return;
    validateAdmissionReviewVersions(w['admissionReviewVersions'], isV1, path.child('admissionReviewVersions'), errs);
    // v1beta1 allowed duplicate names; v1 does not.
    const name = w['name'];
    if (isV1 && typeof name === 'string' && name.length > 0) {
      if (names.has(name)) errs.push(duplicate(path.child('name'), name));
      else names.add(name);
    }
  });
  return errs;
}
