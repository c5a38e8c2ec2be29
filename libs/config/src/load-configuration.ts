/**
 * `hookgate serve --config PATH`: read every document, check it whole, and return the gateway
 * settings plus the defaulted webhook configurations, or every problem at once.
 *
 * Documents: exactly one `hookgate.dev/v1alpha1` GatewayConfiguration, any number of
 * `admissionregistration.k8s.io/v1` or `v1beta1` Mutating/ValidatingWebhookConfiguration objects
 * (a `v1 List` of them too). Anything else is an error: a stray document is more likely a mistake
 * than something to ignore.
 */
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import { CONFIG_API_VERSIONS, CONFIG_KINDS, err, ok, parseWebhookConfiguration } from '@hookgate/admission';
import type { DefaultedConfiguration, Result } from '@hookgate/admission';
import { checkReferencedFiles } from './check-files.js';
import { issueFromFieldError } from './config-error.js';
import type { ConfigError, DocumentIssue } from './config-error.js';
import { GATEWAY_API_VERSION, GATEWAY_KIND } from './gateway-configuration.js';
import type { DefaultingEnvironment, GatewayConfiguration } from './gateway-configuration.js';
import { parseGatewayConfiguration } from './parse-gateway-configuration.js';
import { digestOf, readSourceFiles } from './source-files.js';
import { parseDocuments } from './yaml-documents.js';
import type { SourceDocument } from './yaml-documents.js';

export interface ConfigSource {
  readonly file: string;
  readonly document: number;
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
}

export interface LoadedConfiguration {
  readonly gateway: GatewayConfiguration;
  /** In file and document order; compileHooks orders hooks by configuration name. */
  readonly webhookConfigurations: readonly DefaultedConfiguration[];
  readonly sources: readonly ConfigSource[];
  /** sha256 over the files read: equal digests mean nothing changed. */
  readonly digest: string;
  /**
   * Set when `allowStandalone` let webhook configurations load without a GatewayConfiguration:
   * `gateway` is then all defaults and `clientConfig.plugin` names were not checked.
   */
  readonly standalone?: true;
}

export interface LoadOptions {
  /** Overrides for defaulting (tests); the rest comes from the process. */
  readonly env?: Partial<DefaultingEnvironment>;
  /** Check that the files the configuration names are readable. Default true. */
  readonly checkFiles?: boolean;
  /**
   * Accept webhook configurations without a GatewayConfiguration (`hookgate check-config` of a
   * webhook file on its own): the gateway settings are the defaults and plugin names go unchecked.
   */
  readonly allowStandalone?: boolean;
}

/** One object to check: a document, or an item of a `v1 List` document. */
interface Entry {
  readonly doc: SourceDocument;
  /** '' for a document, `items[3]` for a List item. */
  readonly prefix: string;
  readonly value: Record<string, unknown>;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const join = (prefix: string, field: string) => (prefix === '' ? field : field === '' ? prefix : `${prefix}.${field}`);

export async function loadConfiguration(
  path: string,
  options: LoadOptions = {},
): Promise<Result<LoadedConfiguration, ConfigError[]>> {
  const root = resolve(path);
  const files = await readSourceFiles(root);
  if (!files.ok) return err(files.error);
  const env = await defaultingEnvironment(root, options.env);

  const errors: ConfigError[] = [];
  const at = (entry: Entry, object: string | undefined, issue: DocumentIssue): ConfigError => {
    const field = join(entry.prefix, issue.field);
    return {
      file: entry.doc.file,
      document: entry.doc.index,
      line: entry.doc.lineOf(field),
      ...(object ? { object } : {}),
      field,
      rule: issue.rule,
      message: issue.message,
    };
  };

  const entries: Entry[] = [];
  for (const f of files.value) {
    const parsed = parseDocuments(f.file, f.text);
    errors.push(...parsed.errors);
    for (const doc of parsed.documents) entries.push(...expandLists(doc, errors));
  }

  const gatewayEntries: Entry[] = [];
  const webhookEntries: Entry[] = [];
  for (const entry of entries) {
    const { apiVersion, kind } = entry.value;
    if (apiVersion === GATEWAY_API_VERSION && kind === GATEWAY_KIND) gatewayEntries.push(entry);
    else if (
      (CONFIG_API_VERSIONS as readonly unknown[]).includes(apiVersion) &&
      (CONFIG_KINDS as readonly unknown[]).includes(kind)
    )
      webhookEntries.push(entry);
    else errors.push(at(entry, undefined, unsupported(apiVersion, kind)));
  }

  let gateway: GatewayConfiguration | undefined;
  const [first, ...extra] = gatewayEntries;
  const syntaxErrors = errors.some((e) => e.rule === 'YAMLSyntax');
  const standalone = first === undefined && options.allowStandalone === true;
  if (standalone) {
    const defaults = parseGatewayConfiguration({ apiVersion: GATEWAY_API_VERSION, kind: GATEWAY_KIND }, env);
    if (defaults.ok) gateway = defaults.value;
  } else if (first === undefined) {
    // With a syntax error somewhere, the GatewayConfiguration is probably the broken document: say that only.
    if (!syntaxErrors)
      errors.push({
        file: root,
        document: 0,
        field: '',
        rule: 'DocumentMissing',
        message: `no ${GATEWAY_KIND} document (apiVersion: ${GATEWAY_API_VERSION}); the configuration needs exactly one`,
      });
  } else {
    for (const e of extra) {
      errors.push(
        at(e, GATEWAY_KIND, {
          field: '',
          rule: 'DocumentDuplicate',
          message: `a second ${GATEWAY_KIND}; the first is in ${first.doc.file} document ${first.doc.index}`,
        }),
      );
    }
    const parsed = parseGatewayConfiguration(first.value, env);
    if (parsed.ok) {
      gateway = parsed.value;
      if (options.checkFiles ?? true)
        for (const issue of await checkReferencedFiles(gateway)) errors.push(at(first, GATEWAY_KIND, issue));
    } else {
      for (const issue of parsed.error) errors.push(at(first, GATEWAY_KIND, issue));
    }
  }

  // Plugin names from the raw document when the GatewayConfiguration is invalid, and no check at all
  // when it is missing, so one mistake does not cascade into many errors.
  const knownPlugins =
    first === undefined
      ? undefined
      : new Set(gateway ? gateway.plugins.map((p) => p.name) : rawPluginNames(first.value));
  const webhookConfigurations: DefaultedConfiguration[] = [];
  const sources: ConfigSource[] = [];
  const seen = new Map<string, Entry>();
  for (const entry of webhookEntries) {
    const kind = String(entry.value.kind);
    const name =
      isObject(entry.value.metadata) && typeof entry.value.metadata.name === 'string' ? entry.value.metadata.name : '';
    const object = `${kind} "${name}"`;
    const parsed = parseWebhookConfiguration(entry.value, {
      allowHttpLoopback: true,
      ...(knownPlugins ? { knownPlugins } : {}),
    });
    if (!parsed.ok) {
      for (const e of parsed.error) errors.push(at(entry, object, issueFromFieldError(e)));
      continue;
    }
    const key = `${kind}/${name}`;
    const previous = seen.get(key);
    if (previous !== undefined) {
      errors.push(
        at(entry, object, {
          field: 'metadata.name',
          rule: 'DocumentDuplicate',
          message: `metadata.name: Duplicate value: "${name}": ${kind} names are unique; the first is in ${previous.doc.file} document ${previous.doc.index}`,
        }),
      );
      continue;
    }
    seen.set(key, entry);
    webhookConfigurations.push(parsed.value);
    sources.push({
      file: entry.doc.file,
      document: entry.doc.index,
      apiVersion: String(entry.value.apiVersion),
      kind,
      name,
    });
  }

  if (errors.length > 0 || gateway === undefined) return err(errors);
  if (first === undefined)
    return ok({ gateway, webhookConfigurations, sources, digest: digestOf(files.value), standalone: true });
  return ok({
    gateway,
    webhookConfigurations,
    sources: [
      {
        file: first.doc.file,
        document: first.doc.index,
        apiVersion: GATEWAY_API_VERSION,
        kind: GATEWAY_KIND,
        name: '',
      },
      ...sources,
    ],
    digest: digestOf(files.value),
  });
}

function expandLists(doc: SourceDocument, errors: ConfigError[]): Entry[] {
  const value = doc.value;
  if (!isObject(value)) {
    errors.push({
      file: doc.file,
      document: doc.index,
      line: doc.lineOf(''),
      field: '',
      rule: 'DocumentNotSupported',
      message: 'a configuration document must be an object with apiVersion and kind',
    });
    return [];
  }
  if (value.apiVersion === 'v1' && value.kind === 'List') {
    const items = Array.isArray(value.items) ? value.items : [];
    return items.flatMap((item, i) => {
      if (isObject(item)) return [{ doc, prefix: `items[${i}]`, value: item }];
      errors.push({
        file: doc.file,
        document: doc.index,
        line: doc.lineOf(`items[${i}]`),
        field: `items[${i}]`,
        rule: 'DocumentNotSupported',
        message: `items[${i}]: must be an object with apiVersion and kind`,
      });
      return [];
    });
  }
  return [{ doc, prefix: '', value }];
}

function unsupported(apiVersion: unknown, kind: unknown): DocumentIssue {
  const what = `apiVersion ${JSON.stringify(apiVersion ?? null)}, kind ${JSON.stringify(kind ?? null)}`;
  return {
    field: '',
    rule: 'DocumentNotSupported',
    message: `${what} is not a document Hookgate reads: expected ${GATEWAY_KIND} (${GATEWAY_API_VERSION}) or MutatingWebhookConfiguration/ValidatingWebhookConfiguration (admissionregistration.k8s.io/v1 or v1beta1)`,
  };
}

function rawPluginNames(gateway: Obj | undefined): string[] {
  const plugins = gateway?.plugins;
  if (!Array.isArray(plugins)) return [];
  return plugins.flatMap((p: unknown) => (isObject(p) && typeof p.name === 'string' ? [p.name] : []));
}

async function defaultingEnvironment(
  root: string,
  overrides: Partial<DefaultingEnvironment> = {},
): Promise<DefaultingEnvironment> {
  const isDir = await stat(root).then(
    (s) => s.isDirectory(),
    () => false,
  );
  return {
    configDir: isDir ? root : dirname(root),
    cwd: process.cwd(),
    isRoot: process.getuid?.() === 0,
    cpus: availableParallelism(),
    ...overrides,
  };
}
