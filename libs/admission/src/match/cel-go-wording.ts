/**
 * cel-js compile errors reworded as cel-go prints them, where the two can be matched with
 * certainty. The apiserver's validation tests compare these texts (`compilation failed: ERROR:
 * <input>:1:19: Syntax error: missing ']' at '<EOF>'`), so the common cases are translated and
 * everything else keeps cel-js's wording (k8s-semantics §22).
 */

const CLOSERS: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };
const TOKEN_CLOSERS: Readonly<Record<string, string>> = { RPAREN: ')', RBRACKET: ']', RBRACE: '}' };

/**
 * The brackets left open at the end of the expression, outermost first, skipping string and bytes
 * literals (single, double, triple-quoted, raw) and `//` comments. undefined when the text cannot
 * be scanned (an unterminated literal, a closer without opener).
 */
export function unclosedBrackets(expression: string): string[] | undefined {
  const open: string[] = [];
  let i = 0;
  while (i < expression.length) {
    const c = expression[i]!;
    if (c === '/' && expression[i + 1] === '/') {
      const end = expression.indexOf('\n', i);
      i = end === -1 ? expression.length : end + 1;
    } else if (c === '"' || c === "'") {
      // r"..." and rb"..." are raw: a backslash escapes nothing.
      const raw = /(^|[^\w]|[bB])[rR]$/.test(expression.slice(Math.max(0, i - 3), i));
      const end = literalEnd(expression, i, raw);
      if (end === undefined) return undefined;
      i = end;
    } else if (c in CLOSERS) {
      open.push(c);
      i += 1;
    } else if (c === ')' || c === ']' || c === '}') {
      if (open.length === 0 || CLOSERS[open.pop()!] !== c) return undefined;
      i += 1;
    } else {
      i += 1;
    }
  }
  return open;
}

/** Index just past the literal opening at `start`, or undefined when it never closes. */
function literalEnd(text: string, start: number, raw: boolean): number | undefined {
  const quote = text[start]!;
  const delimiter = text.startsWith(quote.repeat(3), start) ? quote.repeat(3) : quote;
  let i = start + delimiter.length;
  while (i < text.length) {
    if (!raw && text[i] === '\\') i += 2;
    else if (text.startsWith(delimiter, i)) return i + delimiter.length;
    else if (delimiter.length === 1 && text[i] === '\n') return undefined;
    else i += 1;
  }
  return undefined;
}

/**
 * ANTLR (cel-go's parser) inserts a missing closing bracket at the end of the input when that one
 * token completes the expression: `Syntax error: missing ']' at '<EOF>'`. That holds when exactly
 * one bracket is open and cel-js stopped at the end expecting its closer, or, for list and map
 * literals (whose elements and trailing comma are optional), right after `[`, `{` or a comma.
 */
function missingCloserAtEnd(expression: string, text: string): string | undefined {
  const open = unclosedBrackets(expression);
  if (open?.length !== 1) return undefined;
  const closer = CLOSERS[open[0]!]!;
  const expected = /^expected (RPAREN|RBRACKET|RBRACE), got EOF$/.exec(text);
  if (expected !== null) return TOKEN_CLOSERS[expected[1]!] === closer ? closer : undefined;
  if (text !== 'unexpected token: EOF' || open[0] === '(') return undefined;
  const last = expression.trimEnd().at(-1);
  return last === ',' || last === open[0] ? closer : undefined;
}

/** cel-go's wording of a cel-js compile error message, or the message unchanged. */
export function celGoWording(expression: string, text: string): string {
  const closer = missingCloserAtEnd(expression, text);
  if (closer !== undefined) return `Syntax error: missing '${closer}' at '<EOF>'`;
  const unknown = /^unknown variable: ([\w.]+)$/.exec(text);
  if (unknown !== null) return `undeclared reference to '${unknown[1]}' (in container '')`;
  return text;
}
