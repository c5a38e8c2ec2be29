/**
 * cel-go's two-variable comprehensions (ext.TwoVarComprehensions, in the Kubernetes CEL
 * environment): over a list the variables are the index and the element, over a map the key and
 * the value.
 *   all(k, v, pred), exists(k, v, pred), existsOne(k, v, pred) (and exists_one)
 *   transformList(k, v, expr), transformList(k, v, filter, expr)
 *   transformMap(k, v, expr), transformMap(k, v, filter, expr)
 *   transformMapEntry(k, v, entryExpr), transformMapEntry(k, v, filter, entryExpr)
 * As in cel-go, `all` is false as soon as a predicate is false and `exists` true as soon as one is
 * true, whatever errors other elements gave; otherwise the first error is the result.
 *
 * cel-js has macros (`ast` parameters) but no public typings for them: the parser hands the
 * handler the argument nodes, and the macro object evaluates them with the evaluator it is given.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { meterIterationScopes } from './cel-cost.js';

/** What cel-js hands a macro and what it calls back with (lib/parser.js, lib/registry.js). */
interface AstNode {
  readonly op: string;
  readonly args: unknown;
}
interface CelType {
  readonly kind?: string;
  readonly name?: string;
  readonly keyType?: CelType;
  readonly valueType?: CelType;
}
interface OverlayContext {
  reuse(parent: unknown): OverlayContext;
  setIterValue(value: unknown, ev: Evaluator): OverlayContext;
  forkWithVariable(name: string, type: CelType): OverlayContext;
}
interface Checker {
  check(node: AstNode, ctx: unknown): CelType;
  getType(name: string): CelType;
  createError(code: string, message: string, node: AstNode): Error;
}
interface Evaluator {
  run(node: AstNode, ctx: unknown): unknown;
}
interface MacroInput {
  readonly args: readonly AstNode[];
  readonly receiver: AstNode;
}

type Kind = 'all' | 'exists' | 'existsOne' | 'transformList' | 'transformMap' | 'transformMapEntry';

class TwoVarError extends Error {}

interface TwoVarMacro {
  readonly kind: Kind;
  readonly receiver: AstNode;
  readonly keyVar: string;
  readonly valueVar: string;
  readonly filter: AstNode | undefined;
  readonly body: AstNode;
  readonly async: false;
  keyCtx?: OverlayContext;
  valueCtx?: OverlayContext;
  typeCheck(checker: Checker, macro: TwoVarMacro, ctx: OverlayContext): CelType;
  evaluate(ev: Evaluator, macro: TwoVarMacro, ctx: unknown): unknown;
}

const RESULT_TYPES: Readonly<Record<Kind, string>> = {
  all: 'bool',
  exists: 'bool',
  existsOne: 'bool',
  transformList: 'list<dyn>',
  transformMap: 'map<dyn, dyn>',
  transformMapEntry: 'map<dyn, dyn>',
};

function identifier(node: AstNode, kind: Kind): string {
  if (node.op === 'id' && typeof node.args === 'string') return node.args;
  throw new TwoVarError(`${kind}() variable names must be simple identifiers`);
}

function typeCheck(checker: Checker, macro: TwoVarMacro, ctx: OverlayContext): CelType {
  const range = checker.check(macro.receiver, ctx);
  const dyn = checker.getType('dyn');
  const keyType = range.kind === 'list' ? checker.getType('int') : range.kind === 'map' ? (range.keyType ?? dyn) : dyn;
  const valueType = range.kind === 'list' || range.kind === 'map' ? (range.valueType ?? dyn) : dyn;
  macro.keyCtx = ctx.forkWithVariable(macro.keyVar, keyType);
  meterIterationScopes(macro.keyCtx);
  macro.valueCtx = macro.keyCtx.forkWithVariable(macro.valueVar, valueType);
  for (const predicate of [macro.filter, RESULT_TYPES[macro.kind] === 'bool' ? macro.body : undefined]) {
    if (predicate === undefined) continue;
    const type = checker.check(predicate, macro.valueCtx);
    if (type.name !== 'bool' && type.kind !== 'dyn' && type.name !== 'dyn') {
      throw checker.createError('invalid_macro_argument', `${macro.kind}() predicate must return bool`, predicate);
    }
  }
  if (RESULT_TYPES[macro.kind] !== 'bool') checker.check(macro.body, macro.valueCtx);
  return checker.getType(RESULT_TYPES[macro.kind]);
}

/** [key, value] pairs: (index, element) of a list, (key, value) of a map. */
function entriesOf(range: unknown, kind: Kind): [unknown, unknown][] {
  if (Array.isArray(range)) return range.map((v, i) => [BigInt(i), v]);
  if (range instanceof Map) return [...range.entries()];
  if (range !== null && typeof range === 'object')
    return Object.keys(range).map((k) => [k, (range as Record<string, unknown>)[k]]);
  throw new TwoVarError(`${kind}() needs a list or a map`);
}

function evaluate(ev: Evaluator, macro: TwoVarMacro, ctx: unknown): unknown {
  const entries = entriesOf(ev.run(macro.receiver, ctx), macro.kind);
  const keyCtx = macro.keyCtx as OverlayContext;
  const valueCtx = macro.valueCtx as OverlayContext;
  const scoped = (key: unknown, value: unknown): OverlayContext =>
    valueCtx.reuse(keyCtx.reuse(ctx).setIterValue(key, ev)).setIterValue(value, ev);
  const test = (node: AstNode, scope: OverlayContext): boolean => {
    const result = ev.run(node, scope);
    if (typeof result !== 'boolean') throw new TwoVarError(`${macro.kind}() predicate must return bool`);
    return result;
  };
  switch (macro.kind) {
    case 'all':
    case 'exists': {
      const decisive = macro.kind === 'exists';
      let firstError: unknown;
      for (const [key, value] of entries) {
        try {
          if (test(macro.body, scoped(key, value)) === decisive) return decisive;
        } catch (error) {
          firstError ??= error;
        }
      }
      if (firstError !== undefined) throw firstError;
      return !decisive;
    }
    case 'existsOne':
      return entries.filter(([key, value]) => test(macro.body, scoped(key, value))).length === 1;
    case 'transformList': {
      const out: unknown[] = [];
      for (const [key, value] of entries) {
        const scope = scoped(key, value);
        if (macro.filter === undefined || test(macro.filter, scope)) out.push(ev.run(macro.body, scope));
      }
      return out;
    }
    case 'transformMap': {
      // Over a list the keys are the indexes: [1, 2].transformMap(i, v, v * 2) == {0: 2, 1: 4}.
      const out = new Map<unknown, unknown>();
      for (const [key, value] of entries) {
        const scope = scoped(key, value);
        if (macro.filter === undefined || test(macro.filter, scope)) out.set(key, ev.run(macro.body, scope));
      }
      return out;
    }
    case 'transformMapEntry': {
      const out = new Map<unknown, unknown>();
      for (const [key, value] of entries) {
        const scope = scoped(key, value);
        if (macro.filter !== undefined && !test(macro.filter, scope)) continue;
        const entry = ev.run(macro.body, scope);
        if (Array.isArray(entry) || entry === null || typeof entry !== 'object')
          throw new TwoVarError('transformMapEntry() expression must produce a map');
        for (const [k, v] of entriesOf(entry, macro.kind)) {
          if (out.has(k)) throw new TwoVarError(`insert failed: key ${String(k)} already exists`);
          out.set(k, v);
        }
      }
      return out;
    }
  }
}

function expander(kind: Kind, withFilter: boolean) {
  return ({ args, receiver }: MacroInput): TwoVarMacro => ({
    kind,
    receiver,
    keyVar: identifier(args[0] as AstNode, kind),
    valueVar: identifier(args[1] as AstNode, kind),
    filter: withFilter ? args[2] : undefined,
    body: (withFilter ? args[3] : args[2]) as AstNode,
    async: false,
    typeCheck,
    evaluate,
  });
}

export function registerTwoVariableComprehensions(env: Environment): Environment {
  const macros: [string, Kind, boolean][] = [
    ['all', 'all', false],
    ['exists', 'exists', false],
    ['existsOne', 'existsOne', false],
    ['exists_one', 'existsOne', false],
    ['transformList', 'transformList', false],
    ['transformList', 'transformList', true],
    ['transformMap', 'transformMap', false],
    ['transformMap', 'transformMap', true],
    ['transformMapEntry', 'transformMapEntry', false],
    ['transformMapEntry', 'transformMapEntry', true],
  ];
  for (const [name, kind, withFilter] of macros) {
    const params = withFilter ? 'ast, ast, ast, ast' : 'ast, ast, ast';
    env.registerFunction(`dyn.${name}(${params}): ${RESULT_TYPES[kind]}`, expander(kind, withFilter) as never);
  }
  return env;
}
