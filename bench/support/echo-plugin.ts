/**
 * The benchmark's plugin process: Junction's own SDK (plugins/sdk) publishing one `echo` tool with a
 * validated input schema, connected as the editor. Arguments: the hub endpoint, and optionally a
 * project root (for project-routing=multi: the plugin then has a pin). Prints `connected`.
 */
import { z } from 'zod';
import { createPlugin } from '../../plugins/sdk/index.js';

const [endpoint, projectRoot] = process.argv.slice(2);
const plugin = createPlugin({ name: 'bench-echo', version: '1.0.0', role: 'editor', endpoint: endpoint!, ...(projectRoot ? { project: { path: projectRoot } } : {}) });
plugin.tool({ name: 'echo', description: 'Echoes its text.', input: z.object({ text: z.string() }), handler: (args) => args });
await plugin.connect();
console.log('connected');
process.on('SIGTERM', () => {
  void plugin.disconnect().finally(() => process.exit(0));
});
