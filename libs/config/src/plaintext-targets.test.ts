import { describe, expect, it } from 'vitest';
import { isLoopbackTarget, mayCallInPlaintext } from './plaintext-targets.js';

describe('isLoopbackTarget', () => {
  it.each([
    ['127.0.0.1:7001', true],
    ['127.200.3.4:7001', true],
    ['[::1]:7001', true],
    ['localhost:7001', false], // a name: not trusted to stay on this host
    ['10.0.0.5:7001', false],
    ['[fd00::2]:7001', false],
    ['plugin.example.com:443', false],
    ['128.0.0.1:7001', false],
  ])('%s: %s', (target, loopback) => expect(isLoopbackTarget(target)).toBe(loopback));
});

describe('mayCallInPlaintext', () => {
  it.each([
    ['unix:///run/hookgate/plugin.sock', true],
    ['127.0.0.1:7001', true],
    ['localhost:7001', false],
    ['10.0.0.5:7001', false],
  ])('%s: %s', (target, plaintext) => expect(mayCallInPlaintext(target)).toBe(plaintext));
});
