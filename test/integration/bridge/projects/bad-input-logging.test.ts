import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgv, resolveConfig } from '../../../../src-main/app/config/index.js';
import { startJunction } from '../../../../src-main/app/junction.js';
import type { Logger } from '../../../../src-main/shared/log.js';
import { DotnetLikePlugin } from '../../../support/dotnet-like-plugin.js';

test('each refused pin or project field is logged once, however often it is retried', async () => {
  const warnings: string[] = [];
  const logger: Logger = { error() {}, info() {}, debug() {}, warn: (message) => warnings.push(message) };
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-state-'));
  const { parsed, problems } = parseArgv(['project-routing=multi', 'port=0', `state-dir=${stateDir}`]);
  const junction = await startJunction({ config: resolveConfig([{ values: parsed.values, problems }]), logger });
  try {
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${junction.baseUrl}/p/zz-top/api/tools/server-status`, { method: 'POST', body: '{}' });
      assert.equal(response.status, 400);
      await assert.rejects(DotnetLikePlugin.connect(`${junction.baseUrl}/hub/mcp-server`, { instanceId: 'x', projectName: 'a/b' }), /InvalidProjectMetadata/);
    }
    assert.equal((await fetch(`${junction.baseUrl}/p/other!/mcp`, { method: 'POST' })).status, 400);
    assert.deepEqual(
      warnings.filter((w) => w.startsWith('refused')),
      [
        "refused a malformed project pin path segment 'p/zz-top'",
        "refused a plugin connection: The hub query field 'project_name' holds a path separator.",
        "refused a malformed project pin path segment 'p/other!'",
      ],
    );
  } finally {
    await junction.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
});
