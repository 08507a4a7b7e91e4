import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { SIGNATURE_FIELD, signBody } from '../../../../src-main/bridge/webhooks/index.js';
import { withSignature } from '../../../../src-main/bridge/webhooks/signature.js';

describe('webhook HMAC signature', () => {
  test('is sha256=<hex HMAC-SHA256 of the body keyed by the token>', () => {
    // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
    assert.equal(signBody('what do ya want for nothing?', 'Jefe'), 'sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  test('is appended as the last member, and removing it gives back the signed bytes exactly', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }), fc.jsonValue(), { minKeys: 1 }), fc.string({ minLength: 1 }), (object, secret) => {
        fc.pre(!(SIGNATURE_FIELD in object));
        const unsigned = JSON.stringify(object);
        const signed = withSignature(unsigned, secret);
        const parsed = JSON.parse(signed) as Record<string, unknown>;
        const { [SIGNATURE_FIELD]: signature, ...rest } = parsed;
        assert.equal(JSON.stringify(rest), unsigned);
        assert.equal(signature, `sha256=${createHmac('sha256', secret).update(unsigned).digest('hex')}`);
        assert.equal(Object.keys(parsed).at(-1), SIGNATURE_FIELD);
      }),
    );
  });
});
