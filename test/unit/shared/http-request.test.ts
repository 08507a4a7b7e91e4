import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathOfTarget } from '../../../src-main/shared/http-request.js';

/** The path, or that reading it throws (a target such as `//%` names an invalid host). */
const outcome = (read: () => string) => {
  try {
    return read();
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
};
const agree = (target: string) => assert.equal(outcome(() => pathOfTarget(target)), outcome(() => new URL(target, 'http://localhost').pathname), JSON.stringify(target));

test('a request path is read exactly as the URL parser reads it, on the fast path and off it', () => {
  const targets = [
    '/', '/mcp', '/api/tools/echo', '/api/tools/echo?x=1', '/p/abc/mcp?', '/api/tools/a%2Fb', '/api/tools/%2e%2e/x',
    '/api/../console', '/api/./tools', '/a/b/..', '//evil.example/mcp', '/\\\\evil', '/api\\\\tools', '/a b', '/a"b', '/a<b>',
    '/a`b', '/a{b}', '/a#frag', '/a?b#c', '/ü', '/a\\tb', '/a\\nb', '/api/tools/x:y@z', "/a'b", '/a|b', '/a^b', '/a[b]',
    '/.', '/..', '/...', '/.hidden', 'relative', '', '?q', '/a?b?c',
  ];
  for (const target of targets) agree(target);
});

test('random request targets agree with the URL parser', () => {
  const alphabet = ['/', '.', '?', '#', '%', '2', 'e', 'a', '\\\\', ' ', '~', ':', '@', "'", '"', '\\t', 'ü', '|'];
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 20_000; i++) {
    let target = '/';
    const length = Math.floor(next() * 12);
    for (let k = 0; k < length; k++) target += alphabet[Math.floor(next() * alphabet.length)]!;
    agree(target);
  }
});
