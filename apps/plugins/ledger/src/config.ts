/**
 * ledger configuration: YAML → validated LedgerConfig, every problem named by its field path.
 *
 *   keyPrefix: "hookgate:ledger:"        # optional
 *   pendingTtlSeconds: 3600              # optional: how long an unsettled claim lives
 *   ledgers:
 *     - name: hostnames
 *       kinds: [networking.k8s.io/Ingress, Service]
 *       annotation: ledger.hookgate.dev/hostname
 *       scope: Cluster                   # or Namespace
 *       lowercase: true
 */
import {
  loadPluginConfig,
  parsePluginConfig,
  validQualifiedName,
  type FieldPath,
  type FieldReader,
} from '@hookgate/plugin-sdk';
import type { KindPattern, LedgerConfig, LedgerSpec } from './decide.js';

const PLUGIN = 'ledger';
const LEDGER_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const KIND_NAME = /^[A-Z][A-Za-z0-9]*$/;
const SCOPES = ['Cluster', 'Namespace'] as const;

export const DEFAULT_KEY_PREFIX = 'hookgate:ledger:';
export const DEFAULT_PENDING_TTL_SECONDS = 3600;

export interface LedgerSettings extends LedgerConfig {
  pendingTtlSeconds: number;
}

export async function loadLedgerConfig(path: string): Promise<LedgerSettings> {
  return loadPluginConfig(PLUGIN, path, readLedgerSettings);
}

export function parseLedgerConfig(text: string, source: string): LedgerSettings {
  return parsePluginConfig(PLUGIN, text, source, readLedgerSettings);
}

function readLedgerSettings(r: FieldReader): LedgerSettings {
  const keyPrefix = r.string('keyPrefix', DEFAULT_KEY_PREFIX, { allowEmpty: true });
  const ttl = r.raw('pendingTtlSeconds') ?? DEFAULT_PENDING_TTL_SECONDS;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 60) {
    r.invalid(
      'pendingTtlSeconds',
      ttl,
      'must be a whole number of seconds, at least 60 (longer than any admission call)',
    );
  }

  const ledgers: LedgerSpec[] = [];
  const raw = r.raw('ledgers');
  if (!Array.isArray(raw) || raw.length === 0)
    r.invalid('ledgers', raw ?? null, 'must be a non-empty list of { name, kinds, annotation, scope?, lowercase? }');
  else
    r.items('ledgers', (item) => {
      const ledger = readLedger(item);
      if (ledger === undefined) return;
      if (ledgers.some((l) => l.name === ledger.name)) item.invalid('name', ledger.name, 'must be unique');
      ledgers.push(ledger);
    });

  return { keyPrefix, pendingTtlSeconds: ttl as number, ledgers };
}

function readLedger(item: FieldReader): LedgerSpec | undefined {
  const name = item.requiredString('name');
  if (name !== undefined && !LEDGER_NAME.test(name))
    item.invalid('name', name, 'must be lowercase letters, digits and "-" (it is part of Redis keys)');

  const kindTexts = item.stringList('kinds') ?? [];
  if (kindTexts.length === 0) item.required('kinds');
  const kinds = kindTexts
    .map((text, i) => readKind(item, text, item.at('kinds').index(i)))
    .filter((k) => k !== undefined);

  const annotation = item.requiredString('annotation');
  if (annotation !== undefined && !validQualifiedName(annotation))
    item.invalid('annotation', annotation, 'must be an annotation key ([prefix/]name)');

  // allowEmpty: "" is answered with the supported values below, not a bare "must be non-empty".
  const scope = item.string('scope', 'Cluster', { allowEmpty: true });
  if (!SCOPES.includes(scope as LedgerSpec['scope'])) item.notSupported('scope', scope, SCOPES);

  const lowercase = item.bool('lowercase', false);
  item.finish();

  if (name === undefined || annotation === undefined) return undefined;
  return { name, kinds, annotation, scope: scope as LedgerSpec['scope'], lowercase };
}

/** `Kind` (core group), `group/Kind`, with `*` for either part. */
function readKind(r: FieldReader, text: string, path: FieldPath): KindPattern | undefined {
  if (text === '*') return { group: '*', kind: '*' };
  const slash = text.indexOf('/');
  const group = slash < 0 ? '' : text.slice(0, slash);
  const kind = slash < 0 ? text : text.slice(slash + 1);
  if (kind !== '*' && !KIND_NAME.test(kind))
    return r.invalid(path, text, 'must be Kind (core group), group/Kind or *, e.g. networking.k8s.io/Ingress');
  return { group, kind };
}
