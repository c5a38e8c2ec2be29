/**
 * GatewayConfiguration document → defaulted GatewayConfiguration, or every problem in it.
 * Unknown fields are errors at every level: a misspelt field would otherwise silently fall back
 * to its default.
 */
import { isAbsolute, resolve } from 'node:path';
import {
  FieldReader,
  duplicate,
  err,
  forbidden,
  invalid,
  isDns1123Label,
  ok,
  required,
  validateLabels,
  validateRule,
} from '@hookgate/admission';
import type { FieldError, Result, RuleWithOperations } from '@hookgate/admission';
import { LOG_LEVELS } from '@hookgate/observability';
import { issueFromFieldError, type DocumentIssue } from './config-error.js';
import { MAX_UNIX_SOCKET_PATH_BYTES, isHost, readClientTls, readPluginList, type PathReader } from './plugin-list.js';
import { readQueueSettings } from './parse-queue-settings.js';
import { DEFAULTS, GATEWAY_API_VERSION, GATEWAY_KIND } from './gateway-configuration.js';
import type {
  AdmissionListener,
  DefaultingEnvironment,
  GatewayConfiguration,
  KubernetesAccess,
  MetricsListener,
  RegistrationSettings,
  ReservedRules,
  StaticNamespace,
} from './gateway-configuration.js';

const PORT = { min: 0, max: 65535 };

export function parseGatewayConfiguration(
  document: unknown,
  env: DefaultingEnvironment,
): Result<GatewayConfiguration, DocumentIssue[]> {
  const top = FieldReader.of(document);
  const path = (p: string) => (isAbsolute(p) ? p : resolve(env.configDir, p));
  const optionalPath = (r: FieldReader, name: string) => {
    const v = r.string(name);
    return v === undefined ? undefined : path(v);
  };
  top.raw('apiVersion');
  top.raw('kind');

  const admission = readAdmission(top.object('admission'), optionalPath);
  const metricsReader = top.object('metrics');
  const metrics = readListener(metricsReader, DEFAULTS.metricsHost, DEFAULTS.metricsPort);
  metricsReader.finish();
  checkPortConflict(admission, metrics, top);

  const stateDirRaw = top.string('stateDir');
  const stateDir =
    stateDirRaw !== undefined
      ? path(stateDirRaw)
      : env.isRoot
        ? DEFAULTS.rootStateDir
        : resolve(env.cwd, DEFAULTS.userStateDir);
  const queue = readQueueSettings(top, stateDir, optionalPath);

  const plugins = readPluginList(top, optionalPath, { stream: true, command: true });
  const kubernetes = readKubernetes(top.object('kubernetes'), optionalPath);
  const namespaces = readNamespaces(top, kubernetes);

  const timeoutsReader = top.object('timeouts');
  const timeouts = {
    safetyMarginMs: timeoutsReader.int('safetyMarginMs', DEFAULTS.safetyMarginMs, { min: 0, max: 29_999 }),
    defaultRequestTimeoutSeconds: timeoutsReader.int(
      'defaultRequestTimeoutSeconds',
      DEFAULTS.defaultRequestTimeoutSeconds,
      { min: 1, max: 30 },
    ),
  };
  timeoutsReader.finish();

  const auditReader = top.object('audit');
  const audit = { patchAnnotations: auditReader.bool('patchAnnotations', false) };
  auditReader.finish();

  const workers = top.int('workers', Math.max(1, env.cpus), { min: 1, max: 256 });

  const registryReader = top.object('registry');
  const clientTls = registryReader.has('clientTls')
    ? readClientTls(registryReader.object('clientTls'), optionalPath)
    : undefined;
  const registry = {
    disabled: registryReader.bool('disabled', false),
    socket: optionalPath(registryReader, 'socket') ?? resolve(stateDir, 'registry.sock'),
    ...(clientTls === undefined ? {} : { clientTls }),
  };
  if (!registry.disabled && Buffer.byteLength(registry.socket) > MAX_UNIX_SOCKET_PATH_BYTES) {
    registryReader.report(
      invalid(
        registryReader.path.child('socket'),
        registry.socket,
        `must be at most ${MAX_UNIX_SOCKET_PATH_BYTES} bytes long (the unix socket path limit); set registry.socket or a shorter stateDir`,
      ),
    );
  }
  registryReader.finish();

  const registration = readRegistration(top.object('registration'));

  const logLevel = top.oneOf('logLevel', LOG_LEVELS, DEFAULTS.logLevel);
  top.finish();

  if (top.errors().length > 0) return err(top.errors().map(issueFromFieldError));
  return ok({
    apiVersion: GATEWAY_API_VERSION,
    kind: GATEWAY_KIND,
    admission,
    metrics,
    stateDir,
    plugins,
    kubernetes,
    namespaces,
    timeouts,
    audit,
    workers,
    registry,
    registration,
    logLevel,
    ...queue,
  });
}

function requiredOneOf<T extends string>(r: FieldReader, name: string, values: readonly T[]): T | undefined {
  const v = r.requiredString(name);
  if (v === undefined) return undefined;
  if (!(values as readonly string[]).includes(v)) return void r.notSupported(name, v, values);
  return v as T;
}

function readRegistration(r: FieldReader): RegistrationSettings {
  const exemptNamespaces = r.stringList('exemptNamespaces') ?? [...DEFAULTS.exemptNamespaces];
  exemptNamespaces.forEach((name, i) => {
    for (const msg of isDns1123Label(name)) r.report(invalid(r.path.child('exemptNamespaces').index(i), name, msg));
  });
  const reserve = r.items('reserve', (item): ReservedRules | undefined => {
    const type = requiredOneOf(item, 'type', ['Mutating', 'Validating'] as const);
    const failurePolicy = requiredOneOf(item, 'failurePolicy', ['Fail', 'Ignore'] as const);
    const rules = item.list('rules');
    if (rules.length === 0) item.required('rules');
    const errors: FieldError[] = [];
    rules.forEach((rule, i) => validateRule(rule, item.path.child('rules').index(i), errors));
    errors.forEach((e) => item.report(e));
    item.finish();
    if (type === undefined || failurePolicy === undefined || errors.length > 0) return undefined;
    return { type, failurePolicy, rules: rules as RuleWithOperations[] };
  });
  r.finish();
  return { exemptNamespaces, reserve: reserve.filter((x): x is ReservedRules => x !== undefined) };
}

function readListener(r: FieldReader, defaultHost: string, defaultPort: number): MetricsListener {
  const host = r.string('host', defaultHost);
  if (!isHost(host))
    r.report(invalid(r.path.child('host'), host, 'must be an IP address or a DNS name, without scheme or port'));
  return { host, port: r.int('port', defaultPort, PORT) };
}

function readAdmission(r: FieldReader, optionalPath: PathReader): AdmissionListener {
  const { host, port } = readListener(r, DEFAULTS.admissionHost, DEFAULTS.admissionPort);
  const t = r.object('tls');
  const disabled = t.bool('disabled', false);
  const certFile = optionalPath(t, 'certFile');
  const keyFile = optionalPath(t, 'keyFile');
  const clientCAFile = optionalPath(t, 'clientCAFile');
  if ((certFile === undefined) !== (keyFile === undefined)) {
    t.report(
      required(t.path.child(certFile === undefined ? 'certFile' : 'keyFile'), 'certFile and keyFile go together'),
    );
  }
  if (disabled) {
    for (const [name, value] of [
      ['certFile', certFile],
      ['keyFile', keyFile],
      ['clientCAFile', clientCAFile],
    ] as const) {
      if (value !== undefined) t.report(forbidden(t.path.child(name), 'may not be set when tls.disabled is true'));
    }
  }
  t.finish();
  const bearerTokenFile = optionalPath(r, 'bearerTokenFile');
  r.finish();
  return {
    host,
    port,
    tls: {
      disabled,
      ...(certFile ? { certFile } : {}),
      ...(keyFile ? { keyFile } : {}),
      ...(clientCAFile ? { clientCAFile } : {}),
    },
    ...(bearerTokenFile ? { bearerTokenFile } : {}),
  };
}

/** Two listeners may not take the same port on overlapping addresses. */
function checkPortConflict(admission: AdmissionListener, metrics: MetricsListener, top: FieldReader): void {
  const wildcard = (h: string) => h === '0.0.0.0' || h === '::';
  const overlap = admission.host === metrics.host || wildcard(admission.host) || wildcard(metrics.host);
  if (admission.port !== 0 && admission.port === metrics.port && overlap) {
    top.report(
      invalid(top.path.child('metrics', 'port'), metrics.port, 'must differ from admission.port on the same address'),
    );
  }
}

function readKubernetes(r: FieldReader, optionalPath: PathReader): KubernetesAccess {
  const mode = r.oneOf('mode', ['none', 'kubeconfig', 'inCluster'] as const, 'none');
  const kubeconfig = optionalPath(r, 'kubeconfig');
  if (kubeconfig !== undefined && mode !== 'kubeconfig')
    r.report(forbidden(r.path.child('kubeconfig'), 'may only be set when mode is kubeconfig'));
  r.finish();
  return mode === 'kubeconfig' && kubeconfig !== undefined ? { mode, kubeconfig } : { mode };
}

function readNamespaces(top: FieldReader, kubernetes: KubernetesAccess): StaticNamespace[] {
  const given = top.raw('namespaces');
  if (Array.isArray(given) && given.length > 0 && kubernetes.mode !== 'none') {
    top.report(
      forbidden(
        top.path.child('namespaces'),
        'static namespace labels are used only with kubernetes.mode none; with an apiserver the labels come from it',
      ),
    );
  }
  const seen = new Set<string>();
  const namespaces: StaticNamespace[] = [];
  top.items('namespaces', (r) => {
    const name = r.requiredString('name');
    if (name !== undefined) {
      for (const msg of isDns1123Label(name)) r.report(invalid(r.path.child('name'), name, msg));
      if (seen.has(name)) r.report(duplicate(r.path.child('name'), name));
      seen.add(name);
    }
    const labelsRaw = r.raw('labels');
    const labelErrors = validateLabels(labelsRaw, r.path.child('labels'));
    labelErrors.forEach((e) => r.report(e));
    const labels = labelErrors.length === 0 && labelsRaw !== undefined ? (labelsRaw as Record<string, string>) : {};
    const nameLabel = labels['kubernetes.io/metadata.name'];
    if (name !== undefined && nameLabel !== undefined && nameLabel !== name) {
      r.report(
        invalid(
          r.path.child('labels').key('kubernetes.io/metadata.name'),
          nameLabel,
          'must be the namespace name (the apiserver sets it)',
        ),
      );
    }
    r.finish();
    if (name !== undefined) namespaces.push({ name, labels: { ...labels, 'kubernetes.io/metadata.name': name } });
  });
  return namespaces;
}
