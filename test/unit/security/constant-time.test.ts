import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { constantTimeEqual } from '../../../src-main/security/index.js';

describe('constantTimeEqual', () => {
  test('equal secrets compare equal', () => {
    assert.equal(constantTimeEqual('s3cret-token', 's3cret-token'), true);
    assert.equal(constantTimeEqual('', ''), true);
  });

  test('same-length secrets that differ anywhere compare unequal', () => {
    assert.equal(constantTimeEqual('s3cret-token', 's3cret-tokeN'), false);
    assert.equal(constantTimeEqual('s3cret-token', 'S3cret-token'), false);
  });

  test('different lengths compare unequal without throwing (timingSafeEqual alone would throw)', () => {
    assert.equal(constantTimeEqual('short', 'a-much-longer-secret'), false);
    assert.equal(constantTimeEqual('s3cret-token', 's3cret-token-and-more'), false);
    assert.equal(constantTimeEqual('', 'x'), false);
  });

  test('compares UTF-8 content, not UTF-16 length', () => {
    assert.equal(constantTimeEqual('é', 'é'), true);
    assert.equal(constantTimeEqual('é', 'e\u0301'), false);
  });
});
