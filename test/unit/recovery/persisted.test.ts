import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { JournalManifest, OwnerRecord } from '../../../src-main/recovery/model.js';
import { CURRENT_FORMAT_VERSION, SUPPORTED_FORMAT_VERSIONS, decodeManifest, decodeOwner, decodeProgress, encodeManifest, encodeOwner, encodeProgress, probeFormatVersion } from '../../../src-main/recovery/persisted/index.js';
import { FileOperationV1, FileStateV1, ManifestStateV1, ManifestV1 } from '../../../src-main/recovery/persisted/v1.js';
import { manifestFromV1, manifestToV1, ownerFromV1, ownerToV1 } from '../../../src-main/recovery/persisted/v1-mapper.js';

const sha = fc.stringMatching(/^[0-9a-f]{64}$/);
const relPath = fc.stringMatching(/^[a-z0-9]{1,8}(\/[a-z0-9.]{1,8}){0,3}$/);
const manifestArb: fc.Arbitrary<JournalManifest> = fc.record({
  manifestId: fc.uuid(),
  transactionId: fc.string({ minLength: 1, maxLength: 20 }),
  workspaceRoot: fc.constantFrom('/ws', '/tmp/a b/c', 'C:\\work'),
  createdAt: fc.nat(),
  phase: fc.constantFrom('prepared', 'applying', 'completed', 'rolledBack'),
  files: fc.array(
    fc.record({
      path: relPath,
      operation: fc.constantFrom('write', 'delete'),
      beforeSha256: fc.option(sha, { nil: null }),
      afterSha256: fc.option(sha, { nil: null }),
      backupPath: fc.option(relPath, { nil: null }),
      tempPath: fc.option(relPath, { nil: null }),
      phase: fc.constantFrom('pending', 'backedUp', 'applied', 'restored'),
    }, { noNullPrototype: true }),
    { maxLength: 5 },
  ),
}, { noNullPrototype: true });

describe('format 1 persisted model', () => {
  test('enum values are explicit and never change meaning', () => {
    // Persisted numbers are a contract with every later host: this table may grow, never change.
    assert.deepEqual({ ...ManifestStateV1 }, { 1: 'Prepared', 2: 'Applying', 3: 'Completed', 4: 'RolledBack', Prepared: 1, Applying: 2, Completed: 3, RolledBack: 4 });
    assert.deepEqual({ ...FileStateV1 }, { 1: 'Pending', 2: 'BackedUp', 3: 'Applied', 4: 'Restored', Pending: 1, BackedUp: 2, Applied: 3, Restored: 4 });
    assert.deepEqual({ ...FileOperationV1 }, { 1: 'Write', 2: 'Delete', Write: 1, Delete: 2 });
  });

  test('manifest mappers round-trip runtime → v1 → runtime', () => {
    fc.assert(fc.property(manifestArb, (manifest) => assert.deepEqual(manifestFromV1(ManifestV1.parse(manifestToV1(manifest))), manifest)));
  });

  test('encode/decode round-trips through the current format', () => {
    fc.assert(
      fc.property(manifestArb, (manifest) => {
        const decoded = decodeManifest(encodeManifest(manifest));
        assert.equal(decoded.kind, 'ok');
        assert.deepEqual(decoded.kind === 'ok' && decoded.value, manifest);
      }),
    );
  });

  test('owner mappers round-trip', () => {
    const owner: OwnerRecord = { instanceId: 'i-1', pid: 4242, startedAt: 1_700_000_000_000 };
    assert.deepEqual(ownerFromV1(ownerToV1(owner)), owner);
    const decoded = decodeOwner(encodeOwner(owner));
    assert.deepEqual(decoded, { kind: 'ok', formatVersion: 1, value: owner });
  });

  test('contract: the writer emits the current format version, and the current version is readable', () => {
    const manifest: JournalManifest = { manifestId: 'm', transactionId: 't', workspaceRoot: '/w', createdAt: 1, phase: 'prepared', files: [] };
    assert.equal(probeFormatVersion(JSON.parse(encodeManifest(manifest))), CURRENT_FORMAT_VERSION);
    assert.equal(probeFormatVersion(JSON.parse(encodeOwner({ instanceId: 'i', pid: 1, startedAt: 0 }))), CURRENT_FORMAT_VERSION);
    assert.ok(SUPPORTED_FORMAT_VERSIONS.includes(CURRENT_FORMAT_VERSION));
    assert.ok(SUPPORTED_FORMAT_VERSIONS.includes(1), 'format 1 stays readable through 1.x');
  });

  test('progress lines round-trip and a torn or foreign line is skipped', () => {
    const text = encodeProgress({ fileIndex: 0, phase: 'backedUp' }) + 'garbage\n' + encodeProgress({ fileIndex: 3, phase: 'applied' }) + '{"file":4,"sta';
    assert.deepEqual(decodeProgress(1, text), [
      { fileIndex: 0, phase: 'backedUp' },
      { fileIndex: 3, phase: 'applied' },
    ]);
    assert.deepEqual(decodeProgress(99, text), []);
  });
});

describe('probeFormatVersion and dispatch', () => {
  test('reads only the common formatVersion field', () => {
    assert.equal(probeFormatVersion({ formatVersion: 7, anything: { else: true } }), 7);
    assert.equal(probeFormatVersion({ formatVersion: '1' }), null);
    assert.equal(probeFormatVersion({ formatVersion: 1.5 }), null);
    assert.equal(probeFormatVersion([1]), null);
    assert.equal(probeFormatVersion(null), null);
    assert.equal(probeFormatVersion({}), null);
  });

  test('an unknown version is unsupported, never read as the current one', () => {
    const valid = JSON.parse(encodeManifest({ manifestId: 'm', transactionId: 't', workspaceRoot: '/w', createdAt: 1, phase: 'applying', files: [] })) as Record<string, unknown>;
    assert.deepEqual(decodeManifest(JSON.stringify({ ...valid, formatVersion: 99 })), { kind: 'unsupported', formatVersion: 99 });
    assert.deepEqual(decodeManifest(JSON.stringify({ ...valid, formatVersion: 0 })), { kind: 'unsupported', formatVersion: 0 });
  });

  test('invalid JSON, a missing version and a schema mismatch are corrupt', () => {
    assert.equal(decodeManifest('{"formatVersion": 1,').kind, 'corrupt');
    assert.equal(decodeManifest('{"manifestId": "x"}').kind, 'corrupt');
    const bad = decodeManifest(JSON.stringify({ formatVersion: 1, manifestId: 'm', transactionId: 't', workspaceRoot: '/w', createdAt: 1, state: 9, files: [] }));
    assert.equal(bad.kind, 'corrupt');
    assert.equal(bad.kind === 'corrupt' && bad.formatVersion, 1);
  });

  test('optional fields a later 1.x writer adds are ignored by this reader', () => {
    const text = encodeManifest({ manifestId: 'm', transactionId: 't', workspaceRoot: '/w', createdAt: 1, phase: 'completed', files: [] });
    const extended = JSON.stringify({ ...(JSON.parse(text) as object), hostVersion: '1.4.0' });
    assert.equal(decodeManifest(extended).kind, 'ok');
  });
});
