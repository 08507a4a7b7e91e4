/** Electron main script for the e2e test: the real shell around a seeded in-memory Junction. */
import { runElectron } from '../../../src-main/electron/main.js';
import { createWorld } from '../../integration/control/support/world.js';
import { seedWorld } from './seed.js';

const rendererDir = process.env.JUNCTION_RENDERER_DIR;
const preloadPath = process.env.JUNCTION_PRELOAD;
if (!rendererDir || !preloadPath) throw new Error('JUNCTION_RENDERER_DIR and JUNCTION_PRELOAD must be set');

const world = createWorld();
seedWorld(world);
await runElectron({
  rendererDir,
  preloadPath,
  start: async () => ({ hub: world.hub, stop: async () => undefined }),
});
