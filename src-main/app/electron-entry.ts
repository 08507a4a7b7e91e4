/** Electron's main script: the same core and demo as headless mode, inside the desktop shell. */
import { runElectron } from '../electron/main.js';
import { createLogger } from '../shared/index.js';
import { loadConfig } from './config/index.js';
import { startDemo } from './cli/demo.js';
import { limitOldGenerationGrowth } from './runtime/heap-growth.js';
import { startJunction } from './junction.js';
import { CONSOLE_BUNDLE_DIR } from './paths.js';

limitOldGenerationGrowth();
// Electron passes its own binary and this script first; the rest is ours.
const userArgs = process.argv.slice(2);
const { config, origins, settingsPath } = loadConfig([...userArgs, 'demo=true']);
const logger = createLogger(config['log-level']);

await runElectron({
  rendererDir: CONSOLE_BUNDLE_DIR,
  async start() {
    const junction = await startJunction({ config, origins, settingsPath, logger });
    const demo = config.demo ? await startDemo(junction, logger) : undefined;
    return {
      hub: junction.control,
      async stop() {
        await demo?.stop();
        await junction.close();
      },
    };
  },
});
