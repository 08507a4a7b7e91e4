import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PolicyRule } from '../../../src-main/contracts/console.js';
import { analysePolicy } from '../../../src-main/policy/index.js';

const kinds = (rules: PolicyRule[]) => analysePolicy(rules).map((f) => [f.ruleIndex, f.kind, f.byRule]);

describe('dead and shadowed rules', () => {
  test('an earlier rule that matches every call of a later one makes it dead', () => {
    assert.deepEqual(kinds([{ action: 'ask' }, { tool: 'x', action: 'deny' }]), [[1, 'shadowed', 0]]);
    assert.deepEqual(kinds([{ tool: 'remove-*', action: 'ask' }, { tool: 'remove-object', source: 'bridge', action: 'ask' }]), [[1, 'redundant', 0]]);
    assert.deepEqual(kinds([{ tool: 'remove-object', action: 'allow' }, { tool: 'remove-object', action: 'ask' }]), [[1, 'shadowed', 0]], 'the always-allow that made the ask rule dead');
  });

  test('what the earlier rule does not cover keeps the later one alive', () => {
    assert.deepEqual(kinds([{ tool: 'remove-object', agent: 'alice', action: 'allow' }, { tool: 'remove-object', action: 'ask' }]), [], 'an agent-scoped always-allow');
    assert.deepEqual(kinds([{ tool: 'remove-*', action: 'ask' }, { tool: 'rem*', action: 'deny' }]), [], 'a wider glob later');
    assert.deepEqual(kinds([{ plugin: '*', action: 'deny' }, { tool: 'x', action: 'ask' }]), [], 'host calls have no plugin, so * on plugin does not cover them');
    assert.deepEqual(kinds([{ role: 'editor', action: 'deny' }, { source: 'bridge', action: 'ask' }]), []);
    assert.deepEqual(kinds([{ annotations: { readOnlyHint: true }, action: 'allow' }, { action: 'ask' }]), []);
    const matcher = { pointer: '/p', regex: '^x' };
    assert.deepEqual(kinds([{ arguments: [matcher], action: 'allow' }, { arguments: [matcher], action: 'deny' }]), [], 'an allow matcher holds for fewer calls than the same deny matcher');
    assert.deepEqual(kinds([{ arguments: [matcher], action: 'deny' }, { arguments: [matcher, { pointer: '/q', exists: true }], action: 'allow' }]), [[1, 'shadowed', 0]]);
  });
});
