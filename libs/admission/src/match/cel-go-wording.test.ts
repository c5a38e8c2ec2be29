import { describe, expect, it } from 'vitest';
import { checkMatchConditionExpression } from './cel.js';
import { celGoWording, unclosedBrackets } from './cel-go-wording.js';

describe('unclosedBrackets', () => {
  it.each([
    ['[1, 2,', ['[']],
    ['f([1, 2', ['(', '[']],
    ['[1, 2]', []],
    ['\'[\' + "(" == x', []],
    ["r'\\' == '['", []],
    ["'''a ' [ ''' + [", ['[']],
    ['a // [ comment\n + (', ['(']],
  ])('%j → %j', (expression, open) => expect(unclosedBrackets(expression)).toEqual(open));

  it.each([['"abc'], ['1 == 1)'], ['[1, 2)']])('%j cannot be scanned', (expression) =>
    expect(unclosedBrackets(expression)).toBeUndefined(),
  );
});

describe('compile errors in cel-go wording', () => {
  it.each([
    ['object.x in [1, 2,', "ERROR: <input>:1:19: Syntax error: missing ']' at '<EOF>'"],
    ['object.x in [1, 2', "ERROR: <input>:1:18: Syntax error: missing ']' at '<EOF>'"],
    ['[', "ERROR: <input>:1:2: Syntax error: missing ']' at '<EOF>'"],
    ["{'a': 1,", "ERROR: <input>:1:9: Syntax error: missing '}' at '<EOF>'"],
    ['size(object.x', "ERROR: <input>:1:14: Syntax error: missing ')' at '<EOF>'"],
    ['params.x == 1', "ERROR: <input>:1:1: undeclared reference to 'params' (in container '')"],
  ])('%j', (expression, text) => expect(checkMatchConditionExpression(expression)).toBe(`compilation failed: ${text}`));

  it.each([
    // Two open brackets: inserting one closer does not end the expression, so ANTLR words it otherwise.
    ['f([1, 2,', 'unexpected token: EOF'],
    // A call's arguments take no trailing comma.
    ['f(1,', 'unexpected token: EOF'],
    ['1 +', 'unexpected token: EOF'],
  ])('%j keeps cel-js wording', (expression, text) => expect(celGoWording(expression, text)).toBe(text));
});
