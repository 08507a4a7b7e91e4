/**
 * TypeScript plugins that say which project they belong to get pins in project-routing=multi, as
 * McpPlugin 8.x plugins do: the SDK sends the project's path hash on the connect URL, and an editor
 * and a runtime of one project are one project.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createPlugin, projectPathHash, type McpPlugin } from '../../../../plugins/sdk/index.js';
import { eventually, startTestJunction } from '../../../support/junction-harness.js';

function whoami(hubUrl: string, role: 'editor' | 'runtime', project: { name: string; path: string }): McpPlugin {
  const plugin = createPlugin({ name: `${project.name}-${role}`, version: '1.0.0', role, endpoint: hubUrl, project: { ...project, engine: 'Test engine' } });
  plugin.tool({ name: 'whoami', description: 'Names the project and role that answered.', input: z.object({}), handler: () => ({ project: project.name, role }) });
  return plugin;
}

test("createPlugin({ project }) gives each project its pin; one project's editor and runtime share it", async () => {
  const junction = await startTestJunction(['project-routing=multi']);
  const hubUrl = `${junction.baseUrl}/hub/mcp-server`;
  const alpha = { name: 'Alpha', path: '/work/games/alpha' };
  const beta = { name: 'Beta', path: 'C:\\Games\\Beta\\' };
  const plugins = [whoami(hubUrl, 'editor', alpha), whoami(hubUrl, 'runtime', alpha), whoami(hubUrl, 'editor', beta)];
  try {
    for (const plugin of plugins) await plugin.connect();
    const pinOf = (path: string) => projectPathHash(path).slice(0, 8);
    const projects = await eventually(() => {
      const listed = junction.control.snapshotFrame().snapshot.bridge.projects ?? [];
      return listed.length === 2 ? listed : undefined;
    }, 10_000, 'two projects');
    assert.deepEqual(projects.map((p) => p.pin).sort(), [pinOf(alpha.path), pinOf(beta.path)].sort());
    assert.ok(projects.every((p) => /Alpha|Beta/.test(p.label)), JSON.stringify(projects));

    const call = async (pin: string) => {
      const res = await fetch(`${junction.baseUrl}/p/${pin}/api/tools/whoami`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      assert.equal(res.status, 200, `pin ${pin}`);
      return ((await res.json()) as { structuredContent: { project: string; role: string } }).structuredContent;
    };
    assert.deepEqual(await eventually(() => call(pinOf(alpha.path)), 10_000, 'Alpha answers'), { project: 'Alpha', role: 'editor' });
    assert.deepEqual(await call(pinOf(beta.path)), { project: 'Beta', role: 'editor' });
    // McpPlugin's hash: separators and case do not make another project.
    assert.equal(pinOf('c:/games/beta'), pinOf(beta.path));
  } finally {
    await Promise.allSettled(plugins.map((plugin) => plugin.disconnect()));
    await junction.stop();
  }
});
