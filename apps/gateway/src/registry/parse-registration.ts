/**
 * A Register request → plugin, target and defaulted configurations, or every problem at once.
 * The configurations go through parseWebhookConfiguration exactly as static files do, with the
 * registering plugin as the only known plugin: a registration declares the hooks that plugin serves.
 */
import { formatFieldError, isDns1123Subdomain, parseWebhookConfiguration } from '@hookgate/admission';
import type { DefaultedConfiguration } from '@hookgate/admission';
import { LineCounter, parseAllDocuments } from 'yaml';
import { targetProblem as pluginTargetProblem } from '@hookgate/config';
import { checkRegistrationTls } from './registration-tls.js';
import type { RegisteredTls, RegisterInput } from './types.js';

export interface ParsedRegistration {
  readonly plugin: string;
  readonly target: string;
  /** Absent: called in plaintext (a unix socket or a loopback address). */
  readonly tls?: RegisteredTls;
  readonly configurations: readonly DefaultedConfiguration[];
}

export interface ParseOptions {
  /** Also accept `http://` loopback URLs (as static configuration does in local use). */
  readonly allowHttpLoopback?: boolean;
}

export type ParseResult =
  | { readonly ok: true; readonly value: ParsedRegistration }
  | { readonly ok: false; readonly problems: readonly string[] };

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function parseRegistration(input: RegisterInput, options: ParseOptions = {}): ParseResult {
  const problems: string[] = [];
  const plugin = input.plugin;
  if (plugin === '')
    problems.push('plugin: Required value: the plugin name that webhooks reference as clientConfig.plugin');
  else
    for (const msg of isDns1123Subdomain(plugin))
      problems.push(`plugin: Invalid value: ${JSON.stringify(plugin)}: ${msg}`);

  let tls: RegisteredTls | undefined;
  if (input.target === '')
    problems.push('target: Required value: where the gateway calls the plugin (unix:///path.sock or host:port)');
  else {
    const targetProblem = pluginTargetProblem(input.target);
    if (targetProblem !== undefined)
      problems.push(`target: Invalid value: ${JSON.stringify(input.target)}: ${targetProblem}`);
    else {
      const checked = checkRegistrationTls(input.target, input.tls);
      if (checked.ok) tls = checked.tls;
      else problems.push(...checked.problems);
    }
  }

  const configurations: DefaultedConfiguration[] = [];
  const seen = new Map<string, string>();
  const knownPlugins = new Set(plugin === '' ? [] : [plugin]);
  input.configurations.forEach((payload, i) => {
    for (const doc of splitDocuments(payload)) {
      const where = `configurations[${i}] (document ${doc.index}${describeObject(doc.value)})`;
      if ('error' in doc) {
        problems.push(`${where}: ${doc.error}`);
        continue;
      }
      const parsed = parseWebhookConfiguration(doc.value, {
        knownPlugins,
        allowHttpLoopback: options.allowHttpLoopback ?? false,
      });
      const fieldProblems = parsed.ok ? [] : parsed.error.map(formatFieldError);
      fieldProblems.push(...notServedByPlugin(doc.value, plugin));
      if (parsed.ok) {
        const key = `${parsed.value.kind}/${parsed.value.name}`;
        const first = seen.get(key);
        if (first !== undefined)
          fieldProblems.push(
            `metadata.name: Duplicate value: ${JSON.stringify(parsed.value.name)}: already given in ${first}`,
          );
        seen.set(key, where);
      }
      for (const problem of fieldProblems) problems.push(`${where}: ${problem}`);
      if (parsed.ok && fieldProblems.length === 0) configurations.push(parsed.value);
    }
  });

  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { plugin, target: input.target, ...(tls === undefined ? {} : { tls }), configurations } };
}

type SplitDocument =
  | { readonly index: number; readonly value: unknown }
  | { readonly index: number; readonly value: unknown; readonly error: string };

/** YAML (JSON is YAML) with any number of documents; empty documents are skipped, as in files. */
function splitDocuments(payload: string | Uint8Array): SplitDocument[] {
  const text = typeof payload === 'string' ? payload : Buffer.from(payload).toString('utf8');
  const out: SplitDocument[] = [];
  const lineCounter = new LineCounter();
  parseAllDocuments(text, { prettyErrors: false, lineCounter }).forEach((doc, i) => {
    const index = i + 1;
    if (doc.errors.length > 0) {
      const first = doc.errors[0]!;
      const line = lineCounter.linePos(first.pos[0]).line;
      out.push({
        index,
        value: undefined,
        error: `YAML syntax error at line ${line}: ${first.message.split('\n')[0]}`,
      });
      return;
    }
    if (doc.contents === null) return;
    out.push({ index, value: doc.toJS() as unknown });
  });
  return out;
}

/** `, ValidatingWebhookConfiguration "x"` when the document says what it is. */
function describeObject(value: unknown): string {
  if (!isObject(value)) return '';
  const kind = typeof value['kind'] === 'string' ? value['kind'] : undefined;
  const meta = value['metadata'];
  const name = isObject(meta) && typeof meta['name'] === 'string' ? meta['name'] : undefined;
  if (kind === undefined) return '';
  return name === undefined ? `, ${kind}` : `, ${kind} ${JSON.stringify(name)}`;
}

/**
 * A registration declares the hooks its plugin serves: a url or service webhook would let a plugin
 * point the gateway at arbitrary endpoints under its name. Those belong in static configuration.
 */
function notServedByPlugin(value: unknown, plugin: string): string[] {
  if (!isObject(value) || !Array.isArray(value['webhooks'])) return [];
  const problems: string[] = [];
  value['webhooks'].forEach((webhook: unknown, i) => {
    if (!isObject(webhook) || !isObject(webhook['clientConfig'])) return;
    const client = webhook['clientConfig'];
    const hasPlugin = client['plugin'] !== undefined && client['plugin'] !== null;
    const other = ['url', 'service'].filter((k) => client[k] !== undefined && client[k] !== null);
    if (!hasPlugin && other.length > 0) {
      problems.push(
        `webhooks[${i}].clientConfig: Forbidden: a registration may only declare webhooks served by the registering plugin: ` +
          `set clientConfig.plugin to ${JSON.stringify(plugin)} instead of ${other.join(' and ')} (url and service webhooks belong in the static configuration)`,
      );
    }
  });
  return problems;
}
