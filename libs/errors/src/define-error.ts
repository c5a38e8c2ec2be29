/**
 * `defineError(code, messageTemplate, { meaning, remedy })`: one catalogue entry, usable as an
 * error class (`throw new Entry(arg, ...)`, `class MyError extends Entry`) and as data
 * (`Entry.code`, `.meaning`, `.remedy`) for docs/errors.md. fastify's `createError`, typed:
 * the template's `%s` slots are the constructor's string arguments, optionally followed by
 * `{ cause }`.
 */
import { HookgateError, type HookgateErrorCode } from './hookgate-error.js';

export interface ErrorEntry {
  /** What happened, for the docs: one or two sentences. */
  readonly meaning: string;
  /** What to do about it; also carried by every error as `remedy`. */
  readonly remedy: string;
}

export interface CauseOption {
  readonly cause: unknown;
}

/** One `string` per `%s` in the template. */
export type TemplateArgs<M extends string> = M extends `${string}%s${infer Rest}`
  ? [string, ...TemplateArgs<Rest>]
  : [];

export interface ErrorDefinition<
  C extends HookgateErrorCode = HookgateErrorCode,
  A extends string[] = string[],
> extends ErrorEntry {
  new (...args: A | [...A, CauseOption]): HookgateError<C>;
  readonly code: C;
  /** The message with `%s` slots, filled in order by the constructor's arguments. */
  readonly template: string;
}

export function defineError<C extends HookgateErrorCode, M extends string>(
  code: C,
  template: M,
  entry: ErrorEntry,
): ErrorDefinition<C, TemplateArgs<M>> {
  const slots = template.split('%s').length - 1;
  const Defined = class extends HookgateError<C> {
    static readonly code = code;
    static readonly template = template;
    static readonly meaning = entry.meaning;
    static readonly remedy = entry.remedy;

    constructor(...args: unknown[]) {
      const options = args.length > slots ? (args[slots] as CauseOption) : undefined;
      super(code, fillTemplate(template, args.slice(0, slots)), entry.remedy, options);
    }
  };
  return Defined as unknown as ErrorDefinition<C, TemplateArgs<M>>;
}

function fillTemplate(template: string, args: readonly unknown[]): string {
  let next = 0;
  return template.replace(/%s/g, () => String(args[next++]));
}
