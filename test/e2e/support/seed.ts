/** Puts a plausible Junction state into a test world: plugins, calls, a workspace with revisions, recovery evidence. */
import type { World } from '../../integration/control/support/world.js';
import { sampleWorkspace } from '../../integration/control/support/world.js';

export function seedWorld(world: World): void {
  const now = Date.now();
  world.connectPlugin({ connectionId: 'editor-1', role: 'editor', name: 'Unity Editor', pluginVersion: '9.1.0', mcpPluginVersion: '9.0', environment: 'Unity 6000.0', connectedAt: now - 125_000, reconnects: 2, toolCount: 42 });
  world.connectPlugin({ connectionId: 'runtime-1', role: 'runtime', name: 'Game build', pluginVersion: '9.1.0', connectedAt: now - 30_000, state: 'awaited', awaitedUntil: now + 90_000, toolCount: 7 });
  world.startCall({ callId: 'call-ok', tool: 'document-read', agent: 'claude-desktop' });
  world.finishCall('call-ok', { responseBytes: 2048 }, { path: 'src/app.ts', limit: 200 }, { content: [{ type: 'text', text: 'export {};' }] });
  world.startCall({ callId: 'call-err', tool: 'stage-edits', agent: 'inspector', transport: 'http-api' });
  world.finishCall('call-err', { status: 'error', errorCode: 'SnapshotMismatch', durationMs: 4 }, { edits: [] }, { error: { code: 'SnapshotMismatch' } });
  world.startCall({ callId: 'call-long', tool: 'prepare-fix-all', agent: 'claude-desktop', target: 'bridge:editor' });
  world.hub.publish({ type: 'call.progress', callId: 'call-long', progress: { progress: 3, total: 10, message: 'fixing 3 of 10 files' } });
  world.setWorkspace(sampleWorkspace());
}
