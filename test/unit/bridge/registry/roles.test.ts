import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { declaredRole, evaluateHandshake, isGuardedVersion, resolveRole } from '../../../../src-main/bridge/registry/index.js';

describe('role resolution', () => {
  test('the client_role query wins over the X-Client-Role header', () => {
    assert.equal(declaredRole(new URLSearchParams('client_role=runtime'), { 'x-client-role': 'editor' }), 'runtime');
    assert.equal(declaredRole(new URLSearchParams(), { 'x-client-role': 'Runtime' }), 'runtime');
    assert.equal(declaredRole(new URLSearchParams('client_role=bogus'), {}), undefined);
  });

  test('without a declared role, an environment ending in "(runtime)" is a runtime, anything else an editor', () => {
    assert.equal(resolveRole(undefined, 'Unity 6 (runtime)'), 'runtime');
    assert.equal(resolveRole(undefined, 'Unity 6 (Runtime) '), 'runtime');
    assert.equal(resolveRole(undefined, 'Unity 6 (editor)'), 'editor');
    assert.equal(resolveRole(undefined, undefined), 'editor');
    assert.equal(resolveRole('editor', 'game (runtime)'), 'editor');
  });

  test('an 8.x plugin (no role, no mcpPluginVersion) is an editor whatever its environment says', () => {
    assert.equal(resolveRole(undefined, 'Unity 6 (runtime)', false), 'editor');
    assert.equal(resolveRole('runtime', 'Unity 6', false), 'runtime');
  });

  test('the call guard applies from mcpPluginVersion 8.14.0', () => {
    assert.equal(isGuardedVersion('8.14.0'), true);
    assert.equal(isGuardedVersion('8.16.2'), true);
    assert.equal(isGuardedVersion('9.0.0-preview.1'), true);
    assert.equal(isGuardedVersion('8.13.9'), false);
    assert.equal(isGuardedVersion(undefined), false);
    assert.equal(isGuardedVersion('not a version'), false);
  });
});

describe('version handshake', () => {
  const request = { requestId: 'r', pluginVersion: '1.0.0', environment: 'e', mcpPluginVersion: undefined };

  test('the same API major version is compatible', () => {
    const response = evaluateHandshake({ ...request, apiVersion: '2.3.0' }, '8.16.0');
    assert.equal(response.compatible, true);
    assert.equal(response.serverVersion, '8.16.0');
  });

  test('a different major or an unparsable version is refused with a message', () => {
    const older = evaluateHandshake({ ...request, apiVersion: '1.0.0' }, '8.16.0');
    assert.equal(older.compatible, false);
    assert.match(older.message, /update the plugin/);
    const garbage = evaluateHandshake({ ...request, apiVersion: 'banana' }, '8.16.0');
    assert.equal(garbage.compatible, false);
    assert.match(garbage.message, /not a semantic version/);
  });
});
