import { describe, expect, it } from 'vitest';
import { defineError } from './define-error.js';
import { HookgateError, isHookgateError } from './hookgate-error.js';

const HG_ERR_TEST_TWO_SLOTS = defineError('HG_ERR_TEST_TWO_SLOTS', 'plugin %s: %s', {
  meaning: 'a test entry',
  remedy: 'nothing to do',
});

describe('defineError', () => {
  it('fills the template in order and gives the error the one shape', () => {
    const error = new HG_ERR_TEST_TWO_SLOTS('demo', 'broken');
    expect(error).toBeInstanceOf(HookgateError);
    expect(error).toBeInstanceOf(Error);
    expect({ name: error.name, code: error.code, message: error.message, remedy: error.remedy }).toEqual({
      name: 'HookgateError',
      code: 'HG_ERR_TEST_TWO_SLOTS',
      message: 'plugin demo: broken',
      remedy: 'nothing to do',
    });
    expect(error.cause).toBeUndefined();
    expect(error.stack).toContain('plugin demo: broken');
  });

  it('keeps a cause passed after the template arguments', () => {
    const cause = new Error('ECONNREFUSED');
    expect(new HG_ERR_TEST_TWO_SLOTS('demo', 'down', { cause }).cause).toBe(cause);
  });

  it('takes exactly one string per slot, then the cause (checked by the compiler)', () => {
    // @ts-expect-error: the template has two slots
    expect(new HG_ERR_TEST_TWO_SLOTS('demo').message).toBe('plugin demo: undefined');
    // @ts-expect-error: the cause comes after every slot
    expect(new HG_ERR_TEST_TWO_SLOTS('demo', { cause: 1 }).cause).toBeUndefined();
  });

  it('does not re-read placeholders inside arguments', () => {
    expect(new HG_ERR_TEST_TWO_SLOTS('%s', 'x').message).toBe('plugin %s: x');
  });

  it('exposes the entry as data', () => {
    expect({
      code: HG_ERR_TEST_TWO_SLOTS.code,
      template: HG_ERR_TEST_TWO_SLOTS.template,
      meaning: HG_ERR_TEST_TWO_SLOTS.meaning,
      remedy: HG_ERR_TEST_TWO_SLOTS.remedy,
    }).toEqual({
      code: 'HG_ERR_TEST_TWO_SLOTS',
      template: 'plugin %s: %s',
      meaning: 'a test entry',
      remedy: 'nothing to do',
    });
  });

  it('can be extended by a class that keeps its own name and fields', () => {
    class DemoError extends HG_ERR_TEST_TWO_SLOTS {
      override name = 'DemoError';
      constructor(readonly plugin: string) {
        super(plugin, 'extended');
      }
    }
    const error = new DemoError('demo');
    expect({ name: error.name, code: error.code, plugin: error.plugin, message: error.message }).toEqual({
      name: 'DemoError',
      code: 'HG_ERR_TEST_TWO_SLOTS',
      plugin: 'demo',
      message: 'plugin demo: extended',
    });
  });
});

describe('isHookgateError', () => {
  const cases = [
    { name: 'a defined error', error: new HG_ERR_TEST_TWO_SLOTS('a', 'b'), code: undefined, want: true },
    {
      name: 'a defined error, its code',
      error: new HG_ERR_TEST_TWO_SLOTS('a', 'b'),
      code: 'HG_ERR_TEST_TWO_SLOTS',
      want: true,
    },
    {
      name: 'a defined error, another code',
      error: new HG_ERR_TEST_TWO_SLOTS('a', 'b'),
      code: 'HG_ERR_TEST_OTHER',
      want: false,
    },
    {
      name: 'the same shape from another copy of the package',
      error: { code: 'HG_ERR_TEST_TWO_SLOTS', message: 'm', remedy: 'r' },
      code: 'HG_ERR_TEST_TWO_SLOTS',
      want: true,
    },
    {
      name: 'a Node error code',
      error: Object.assign(new Error('x'), { code: 'ENOENT' }),
      code: undefined,
      want: false,
    },
    {
      name: 'a code without a remedy',
      error: { code: 'HG_ERR_TEST_TWO_SLOTS', message: 'm' },
      code: undefined,
      want: false,
    },
    { name: 'not an object', error: 'HG_ERR_TEST_TWO_SLOTS', code: undefined, want: false },
    { name: 'null', error: null, code: undefined, want: false },
  ] as const;
  it.each(cases)('$name', ({ error, code, want }) => {
    expect(isHookgateError(error, code)).toBe(want);
  });
});
