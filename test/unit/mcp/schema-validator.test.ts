import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createSchemaValidator } from '../../../src-main/mcp/schema-validator.js';

const schema = { type: 'object' as const, properties: { email: { type: 'string' as const, format: 'email' } }, required: ['email'] };

test('the shared validator checks answers as the SDK does, formats included', () => {
  const check = createSchemaValidator().getValidator(schema);
  assert.equal(check({ email: 'ada@example.org' }).valid, true);
  const wrong = check({ email: 'not an address' });
  assert.equal(wrong.valid, false);
  assert.match(wrong.errorMessage ?? '', /format "email"/);
});

test('equal schemas arriving as new objects get the same compiled validator', () => {
  const validator = createSchemaValidator();
  assert.equal(validator.getValidator(structuredClone(schema)), validator.getValidator(structuredClone(schema)));
});
