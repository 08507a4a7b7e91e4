import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { presentedToken } from '../../../src-main/security/index.js';

const request = (headers: Record<string, string>, url = '/mcp') => ({ headers, url });

describe('presentedToken', () => {
  test('reads a Bearer Authorization header, scheme case-insensitively', () => {
    assert.equal(presentedToken(request({ authorization: 'Bearer abc.def' }), 'agent'), 'abc.def');
    assert.equal(presentedToken(request({ authorization: 'bearer   abc' }), 'plugin'), 'abc');
  });

  test('ignores other schemes and malformed values', () => {
    assert.equal(presentedToken(request({ authorization: 'Basic dXNlcjpwYXNz' }), 'agent'), undefined);
    assert.equal(presentedToken(request({ authorization: 'Bearer' }), 'agent'), undefined);
    assert.equal(presentedToken(request({ authorization: 'Bearer a b' }), 'agent'), undefined);
  });

  test('plugins may send access_token in the query (browser WebSocket clients cannot set headers)', () => {
    assert.equal(presentedToken(request({}, '/hub/mcp-server?id=1&access_token=tok%2B1'), 'plugin'), 'tok+1');
  });

  test('agents may not send the token in the query', () => {
    assert.equal(presentedToken(request({}, '/mcp?access_token=tok'), 'agent'), undefined);
  });

  test('the header wins over the query', () => {
    assert.equal(presentedToken(request({ authorization: 'Bearer from-header' }, '/hub/mcp-server?access_token=from-query'), 'plugin'), 'from-header');
  });

  test('an empty access_token counts as none', () => {
    assert.equal(presentedToken(request({}, '/hub/mcp-server?access_token='), 'plugin'), undefined);
  });
});
