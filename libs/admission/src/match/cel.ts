/**
 * The CEL environment of webhook match conditions (k8s-semantics §9), on @marcbachmann/cel-js.
 *
 * Variables, as the apiserver declares them for webhooks:
 *   object, oldObject   dyn (JSON; null when absent)
 *   request             kubernetes.AdmissionRequest (typed: unknown fields fail type-checking)
 *   namespaceObject     always null for webhooks; declared dyn (cel-js typed variables cannot be
 *                       null), so field names on it are not type-checked (gap)
 *   authorizer          declared; evaluating a check is an error (cel-authorizer.ts)
 * Options as in the Kubernetes base environment: optional types on, homogeneous aggregate literals.
 * Gaps: no cel-go cost accounting (comprehension iterations are bounded instead, cel-cost.ts), error texts are cel-js's (lower-cased; the common
 * ones reworded as cel-go's in cel-go-wording.ts), extra
 * libraries listed in cel-library.ts (url, ip/cidr, semver, quantity and format are in cel-library-types.ts).
 */
import { Environment } from '@marcbachmann/cel-js';
import type { ParseResult } from '@marcbachmann/cel-js';
import { registerAuthorizer } from './cel-authorizer.js';
import { celGoWording } from './cel-go-wording.js';
import { registerKubernetesLibraries } from './cel-library.js';
import { registerKubernetesTypeLibraries } from './cel-library-types.js';
import { registerTwoVariableComprehensions } from './cel-comprehensions.js';

function buildEnvironment(): Environment {
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: true })
    .registerType('kubernetes.GroupVersionKind', { fields: { group: 'string', version: 'string', kind: 'string' } })
    .registerType('kubernetes.GroupVersionResource', {
      fields: { group: 'string', version: 'string', resource: 'string' },
    })
    .registerType('kubernetes.UserInfo', {
      fields: { username: 'string', uid: 'string', groups: 'list<string>', extra: 'map<string, list<string>>' },
    })
    .registerType('kubernetes.AdmissionRequest', {
      fields: {
        kind: 'kubernetes.GroupVersionKind',
        resource: 'kubernetes.GroupVersionResource',
        subResource: 'string',
        requestKind: 'kubernetes.GroupVersionKind',
        requestResource: 'kubernetes.GroupVersionResource',
        requestSubResource: 'string',
        name: 'string',
        namespace: 'string',
        operation: 'string',
        userInfo: 'kubernetes.UserInfo',
        dryRun: 'bool',
        options: 'dyn',
      },
    })
    .registerVariable('object', 'dyn')
    .registerVariable('oldObject', 'dyn')
    .registerVariable('namespaceObject', 'dyn')
    .registerVariable('request', 'kubernetes.AdmissionRequest');
  registerAuthorizer(env);
  registerKubernetesLibraries(env);
  registerKubernetesTypeLibraries(env);
  registerTwoVariableComprehensions(env);
  // Type-checking a two-variable comprehension hands cel-cost.ts an iteration scope to meter.
  env.parse('[0].all(k, v, true)').check();
  return env;
}

let environment: Environment | undefined;

/** Built on first use: environment construction is the expensive part of cel-js. */
export function celEnvironment(): Environment {
  environment ??= buildEnvironment();
  return environment;
}

interface CelErrorLike {
  readonly summary?: unknown;
  readonly message?: unknown;
  readonly range?: { readonly start: number };
}

/** cel-js error → one line, cel-go-like (cel-go messages start lower-case: `no such key: x`). */
export function celErrorText(error: unknown): string {
  const e = (error ?? {}) as CelErrorLike;
  const raw = typeof e.summary === 'string' ? e.summary : typeof e.message === 'string' ? e.message : String(error);
  const line = raw.split('\n')[0] ?? raw;
  return /^[A-Z][a-z]/.test(line) ? line[0]!.toLowerCase() + line.slice(1) : line;
}

/** `ERROR: <input>:L:C: <message>` as cel-go's issues print (line and column 1-based). */
function issueText(expression: string, error: unknown): string {
  // cel-js reports an unknown field of a typed object as a missing key; cel-go words it as below.
  const text = celGoWording(expression, celErrorText(error).replace(/^no such key: (.*)$/, "undefined field '$1'"));
  const start = (error as CelErrorLike | undefined)?.range?.start;
  if (typeof start !== 'number') return `ERROR: <input>: ${text}`;
  const before = expression.slice(0, start).split('\n');
  const line = before.length;
  const column = (before[before.length - 1]?.length ?? 0) + 1;
  return `ERROR: <input>:${line}:${column}: ${text}`;
}

export type CompiledCel =
  { readonly ok: true; readonly program: ParseResult } | { readonly ok: false; readonly error: string };

/**
 * Parse and type-check; the result type must be exactly bool (the apiserver rejects dyn too).
 * Error texts follow the apiserver's compile step: `compilation failed: ...`,
 * `must evaluate to bool but got <type>`.
 */
export function compileBoolExpression(expression: string): CompiledCel {
  let program: ParseResult;
  try {
    program = celEnvironment().parse(expression);
  } catch (error) {
    return { ok: false, error: `compilation failed: ${issueText(expression, error)}` };
  }
  const checked = program.check();
  if (!checked.valid) return { ok: false, error: `compilation failed: ${issueText(expression, checked.error)}` };
  if (checked.type !== 'bool')
    return { ok: false, error: `must evaluate to bool but got ${checked.type ?? 'unknown'}` };
  return { ok: true, program };
}

/** For configuration validation: undefined when the expression compiles to bool, else the error text. */
export function checkMatchConditionExpression(expression: string): string | undefined {
  const compiled = compileBoolExpression(expression);
  return compiled.ok ? undefined : compiled.error;
}
