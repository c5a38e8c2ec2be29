/**
 * The `hookgate test` suite file (in the spirit of `kyverno test` and `gator verify`): the
 * configuration to test, and cases of an object (or an UPDATE's two), each with what is expected:
 * allowed or denied (with a message), what each hook does, the patched object. Read field by field
 * with the same reader as every Hookgate file: every problem at once, unknown keys with a "did you
 * mean". Object files are relative to the suite; `file.yaml#2` is that file's second document.
 *
 *   apiVersion: hookgate.dev/v1alpha1
 *   kind: TestSuite
 *   metadata: { name: built-in plugins }
 *   configuration: hookgate.yaml
 *   tests:
 *     - name: an unlabelled Deployment is denied
 *       object: objects/deployments.yaml#2
 *       expect:
 *         allowed: false
 *         message: missing label "team"
 *         hooks: { required-labels.hookgate.dev: denied }
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { FieldReader, formatFieldError } from '@hookgate/admission';
import { parseAllDocuments } from 'yaml';
import type { HookResult } from './hook-report.js';

export const SUITE_API_VERSION = 'hookgate.dev/v1alpha1';
export const SUITE_KIND = 'TestSuite';

/** An object given inline, or as a file (relative to the suite) and a 1-based document number. */
export type ObjectRef = { readonly inline: unknown } | { readonly file: string; readonly document: number };

export interface HookExpectation {
  readonly hook: string;
  readonly result?: HookResult;
  /** A part of the hook's denial or failure message, or of why it was skipped. */
  readonly message?: string;
}

export interface Expectation {
  readonly allowed?: boolean;
  /** A part of the Status message the apiserver would return (denials). */
  readonly message?: string;
  readonly code?: number;
  readonly hooks: readonly HookExpectation[];
  /** The object after the mutating phase, compared whole. */
  readonly object?: ObjectRef;
}

export interface TestCase {
  readonly name: string;
  readonly object: ObjectRef;
  readonly oldObject?: ObjectRef;
  readonly operation?: string;
  readonly namespace?: string;
  readonly resource?: string;
  readonly clusterScoped?: boolean;
  readonly user?: string;
  readonly dryRun?: boolean;
  readonly expect: Expectation;
}

export interface TestSuite {
  readonly file: string;
  readonly name: string;
  /** Resolved against the suite's directory; undefined: the --config of the command. */
  readonly configuration?: string;
  readonly cases: readonly TestCase[];
}

const RESULTS: readonly HookResult[] = [
  'allowed',
  'patched',
  'denied',
  'failed-open',
  'failed-closed',
  'refused',
  'patch-error',
  'rejected',
  'skipped',
  'not-run',
];

export type SuiteResult = { ok: true; suite: TestSuite } | { ok: false; errors: string[] };

export async function readTestSuite(file: string): Promise<SuiteResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    return { ok: false, errors: [`${file}: cannot read: ${(e as Error).message}`] };
  }
  const docs = parseAllDocuments(text);
  const first = Array.isArray(docs) ? docs[0] : docs;
  if (first === undefined) return { ok: false, errors: [`${file}: holds no document`] };
  if (first.errors.length > 0) return { ok: false, errors: [`${file}: not valid YAML: ${first.errors[0]!.message}`] };
  const dir = dirname(file);
  const top = FieldReader.of(first.toJS({ maxAliasCount: 100 }));
  const apiVersion = top.requiredString('apiVersion');
  const kind = top.requiredString('kind');
  if (apiVersion !== undefined && apiVersion !== SUITE_API_VERSION)
    top.notSupported('apiVersion', apiVersion, [SUITE_API_VERSION]);
  if (kind !== undefined && kind !== SUITE_KIND) top.notSupported('kind', kind, [SUITE_KIND]);
  const metadata = top.object('metadata');
  const name = metadata.string('name') ?? file;
  metadata.finish();
  const configuration = top.string('configuration');
  const cases = top.items('tests', (t) => readCase(t, dir));
  if (cases.length === 0 && top.errors().length === 0) top.required('tests', 'at least one test');
  top.finish();
  const errors = top.errors().map((e) => `${file}: ${formatFieldError(e)}`);
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    suite: {
      file,
      name,
      ...(configuration !== undefined ? { configuration: resolve(dir, configuration) } : {}),
      cases: cases.filter((c): c is TestCase => c !== undefined),
    },
  };
}

function readCase(t: FieldReader, dir: string): TestCase | undefined {
  const name = t.requiredString('name');
  const object = readObjectRef(t, 'object', dir, true);
  const oldObject = readObjectRef(t, 'oldObject', dir, false);
  const operation = t.string('operation');
  const namespace = t.string('namespace');
  const resource = t.string('resource');
  const clusterScoped = t.bool('clusterScoped');
  const user = t.string('user');
  const dryRun = t.bool('dryRun');
  const e = t.object('expect');
  const allowed = e.bool('allowed');
  const message = e.string('message');
  const code = e.has('code') ? e.int('code', 0, { min: 100, max: 599 }) : undefined;
  const hooks = readHookExpectations(e.map('hooks'));
  const expectedObject = readObjectRef(e, 'object', dir, false);
  e.finish();
  t.finish();
  if (name === undefined || object === undefined) return undefined;
  return {
    name,
    object,
    ...(oldObject ? { oldObject } : {}),
    ...(operation ? { operation } : {}),
    ...(namespace ? { namespace } : {}),
    ...(resource ? { resource } : {}),
    ...(clusterScoped ? { clusterScoped } : {}),
    ...(user ? { user } : {}),
    ...(dryRun ? { dryRun } : {}),
    expect: {
      ...(allowed !== undefined ? { allowed } : {}),
      ...(message !== undefined ? { message } : {}),
      ...(code !== undefined ? { code } : {}),
      hooks,
      ...(expectedObject ? { object: expectedObject } : {}),
    },
  };
}

/** `hooks: { <name>: <result> }` or `{ <name>: { result, message } }`. */
function readHookExpectations(hooks: FieldReader): HookExpectation[] {
  return hooks.keys().map((hook) => {
    const raw = hooks.raw(hook);
    if (typeof raw === 'string') {
      if (!(RESULTS as readonly string[]).includes(raw)) hooks.notSupported(hook, raw, RESULTS);
      return { hook, result: raw as HookResult };
    }
    const h = hooks.object(hook);
    const result = h.has('result') ? h.oneOf('result', RESULTS, 'allowed') : undefined;
    const message = h.string('message');
    h.finish();
    return { hook, ...(result ? { result } : {}), ...(message !== undefined ? { message } : {}) };
  });
}

function readObjectRef(r: FieldReader, field: string, dir: string, isRequired: boolean): ObjectRef | undefined {
  const raw = r.raw(field);
  if (raw === undefined) {
    if (isRequired)
      r.required(field, 'a file (relative to the suite, file.yaml#2 for its second document) or an object');
    return undefined;
  }
  if (typeof raw === 'string') {
    const m = /^(.*?)(?:#(\d+))?$/.exec(raw)!;
    return { file: resolve(dir, m[1]!), document: m[2] === undefined ? 1 : Number(m[2]) };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return r.invalid(field, raw, 'must be a file name or an object');
  return { inline: raw };
}
