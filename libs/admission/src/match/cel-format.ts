/**
 * The Kubernetes CEL format library (k8s.io/apiserver/pkg/cel/library/format.go): named string
 * formats whose `validate(s)` answers `optional.none()` for a valid value, else the list of
 * problems. The name formats use the same validation (and texts) as configuration validation.
 */
import {
  isDns1035Label,
  isDns1123Label,
  isDns1123Subdomain,
  isQualifiedName,
  isValidLabelValue,
} from '../validation/names.js';
import { goParseRequestUri } from '../go-url.js';

export class KubeFormat {
  constructor(
    readonly name: string,
    readonly validate: (value: string) => string[],
  ) {}
}

/** apimachinery's maskTrailingDash: a prefix may end with '-' (a generated name is appended). */
const asPrefix = (check: (value: string) => string[]) => (value: string) =>
  check(value.length > 1 && value.endsWith('-') ? `${value.slice(0, -2)}a` : value);

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

function validDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

function checkDate(value: string): string[] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return m !== null && validDate(Number(m[1]), Number(m[2]), Number(m[3]))
    ? []
    : [`parsing time ${JSON.stringify(value)} as "2006-01-02": cannot parse`];
}

function checkDateTime(value: string): string[] {
  const m = RFC3339.exec(value);
  const ok =
    m !== null &&
    validDate(Number(m[1]), Number(m[2]), Number(m[3])) &&
    Number(m[4]) < 24 &&
    Number(m[5]) < 60 &&
    Number(m[6]) < 60 &&
    (m[9] === undefined || (Number(m[9]) < 24 && Number(m[10]) < 60));
  return ok ? [] : [`parsing time ${JSON.stringify(value)} as "2006-01-02T15:04:05Z07:00": cannot parse`];
}

function checkUri(value: string): string[] {
  const parsed = goParseRequestUri(value);
  return parsed.ok ? [] : [parsed.error];
}

/** The formats by the name `format.named()` takes (and `format.<name>()` returns). */
export const KUBE_FORMATS: ReadonlyMap<string, KubeFormat> = new Map(
  (
    [
      ['dns1123Label', isDns1123Label],
      ['dns1123Subdomain', isDns1123Subdomain],
      ['dns1035Label', isDns1035Label],
      ['qualifiedName', isQualifiedName],
      ['dns1123LabelPrefix', asPrefix(isDns1123Label)],
      ['dns1123SubdomainPrefix', asPrefix(isDns1123Subdomain)],
      ['dns1035LabelPrefix', asPrefix(isDns1035Label)],
      ['labelValue', isValidLabelValue],
      ['uri', checkUri],
      ['uuid', (value: string) => (UUID.test(value) ? [] : ['does not match the UUID format'])],
      ['byte', (value: string) => (BASE64.test(value) ? [] : ['illegal base64 data'])],
      ['date', checkDate],
      ['datetime', checkDateTime],
    ] as const
  ).map(([name, validate]) => [name, new KubeFormat(name, validate)]),
);
