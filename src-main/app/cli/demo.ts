/**
 * The bundled demo for `npm start`: a copy of the demo workspace in the state directory (so agents'
 * commits never touch the repository), opened trusted, and the example scene app connected twice, as
 * an editor and as a runtime, over the real hub.
 */
import { cp, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { startScenePlugin, type RunningScenePlugin } from '../../../plugins/examples/scene/plugin.js';
import type { Logger } from '../../shared/index.js';
import type { Junction } from '../junction.js';
import { DEMO_WORKSPACE_DIR } from '../paths.js';

export interface RunningDemo {
  workspaceRoot: string;
  stop(): Promise<void>;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

export async function startDemo(junction: Junction, logger: Logger): Promise<RunningDemo> {
  const workspaceRoot = join(junction.stateDir, 'demo-workspace');
  if (!(await exists(workspaceRoot))) await cp(DEMO_WORKSPACE_DIR, workspaceRoot, { recursive: true });
  await junction.workspaceHost.openWorkspace(workspaceRoot, { trusted: true });

  const endpoint = `${junction.baseUrl}/hub/mcp-server`;
  const token = junction.agentToken;
  const plugins: RunningScenePlugin[] = [];
  for (const role of ['editor', 'runtime'] as const) {
    plugins.push(await startScenePlugin({ endpoint, role, name: `demo-scene-${role}`, ...(token ? { token } : {}) }));
  }
  logger.info('demo: workspace opened and scene plugins connected', { workspaceRoot });
  return {
    workspaceRoot,
    async stop() {
      await Promise.allSettled(plugins.map((p) => p.stop()));
    },
  };
}
