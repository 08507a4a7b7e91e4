import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { startScenePlugin } from '../../../../plugins/examples/scene/plugin.js';
import { createPlugin } from '../../../../plugins/sdk/index.js';
import type { DuplicateToolDiagnostic } from '../../../../src-main/bridge/registry/index.js';
import { isJunctionError } from '../../../../src-main/contracts/errors.js';
import { callContext, startBridge, toolNames, until } from './harness.js';

function textOf(content: { text: string } | { blob: string } | undefined): string {
  assert.ok(content && 'text' in content, 'a text resource');
  return content.text;
}

describe('catalogue over the real hub', () => {
  test('tools, prompts and resources change events fire on arrival and on departure', async () => {
    const { endpoint, bridge, close } = await startBridge({ pluginReconnectWaitSeconds: 0 });
    let tools = 0;
    let prompts = 0;
    let resources = 0;
    bridge.tools.onToolsChanged(() => tools++);
    bridge.content.onPromptsChanged(() => prompts++);
    bridge.content.onResourcesChanged(() => resources++);
    try {
      const scene = await startScenePlugin({ endpoint, role: 'editor' });
      await until(bridge, () => toolNames(bridge).length === 3 && bridge.content.listPrompts().prompts.length === 1 && bridge.content.listResources().resources.length === 1, 'arrival');
      assert.ok(tools >= 1 && prompts >= 1 && resources >= 1);
      const arrived = { tools, prompts, resources };
      await scene.stop();
      await until(bridge, () => toolNames(bridge).length === 0 && bridge.pluginViews().length === 0, 'departure');
      assert.ok(tools > arrived.tools && prompts > arrived.prompts && resources > arrived.resources);
      assert.deepEqual(bridge.content.listPrompts(), { prompts: [] });
      assert.deepEqual(bridge.content.listResourceTemplates(), { resourceTemplates: [] });
    } finally {
      await close();
    }
  });

  test('prompts and resources answer in MCP shapes; unknown names are structured errors', async () => {
    const { endpoint, bridge, close } = await startBridge();
    const scene = await startScenePlugin({ endpoint, role: 'editor' });
    try {
      await until(bridge, () => bridge.content.listResourceTemplates().resourceTemplates.length === 1 && bridge.content.listPrompts().prompts.length === 1, 'catalogue');
      const cube = scene.scene.add({ name: 'Cube', kind: 'cube' });
      const prompt = await bridge.content.getPrompt('describe-scene', { focus: 'cube' });
      assert.equal(prompt.messages[0]?.role, 'user');
      assert.match(JSON.stringify(prompt.messages[0]?.content), /Cube \(cube\)/);

      assert.deepEqual(bridge.content.listResourceTemplates().resourceTemplates[0], {
        uriTemplate: 'scene://objects/{id}',
        name: 'scene-object',
        mimeType: 'application/json',
        description: 'One object of the scene as JSON.',
      });
      const one = await bridge.content.readResource(`scene://objects/${cube.id}`);
      assert.equal(one.contents[0]?.mimeType, 'application/json');
      assert.deepEqual(JSON.parse(textOf(one.contents[0])), cube);
      const all = await bridge.content.readResource('scene://objects');
      assert.equal(JSON.parse(textOf(all.contents[0])).length, 1);

      await assert.rejects(bridge.content.getPrompt('nope'), (e) => isJunctionError(e) && e.code === 'PromptNotFound');
      await assert.rejects(bridge.content.readResource('scene://objects/missing'), (e) => isJunctionError(e) && e.code === 'InternalError' && /No object/.test(e.message));
      await assert.rejects(bridge.content.readResource('other://x'), (e) => isJunctionError(e) && e.code === 'ResourceNotFound');
    } finally {
      await scene.stop();
      await close();
    }
  });

  test('two different plugins publishing one tool name: a DuplicateTool diagnostic, the editor serves it, nothing crashes', async () => {
    const { endpoint, bridge, close } = await startBridge();
    const diagnostics: DuplicateToolDiagnostic[] = [];
    bridge.events.on('diagnostic', (d) => diagnostics.push(d));
    const make = (name: string, role: 'editor' | 'runtime') =>
      createPlugin({ name, version: '1.0.0', role, endpoint }).tool({ name: 'ping', description: 'Says who answered.', input: z.object({}), handler: () => name });
    const editor = make('scene', 'editor');
    const runtime = make('physics', 'runtime');
    try {
      await editor.connect();
      await runtime.connect();
      await until(bridge, () => diagnostics.length === 1, 'duplicate diagnostic');
      assert.equal(diagnostics[0]?.code, 'DuplicateTool');
      assert.equal(diagnostics[0]?.tool, 'ping');
      assert.match(diagnostics[0]?.message ?? '', /'scene' \(editor\) and 'physics' \(runtime\)/);
      assert.deepEqual(bridge.diagnostics().map((d) => d.tool), ['ping']);
      assert.deepEqual(toolNames(bridge), ['ping']);
      const outcome = await bridge.tools.callTool('ping', {}, callContext());
      assert.deepEqual(outcome.result.content, [{ type: 'text', text: 'scene' }]);
    } finally {
      await editor.disconnect();
      await runtime.disconnect();
      await close();
    }
  });
});
