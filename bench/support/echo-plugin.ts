/**
 * The benchmark's plugin process: Junction's own SDK (plugins/sdk) publishing one `echo` tool with a
 * validated input schema, connected as the editor. Argument: the hub endpoint. Prints `connected`.
 */
import { z } from 'zod';
import { createPlugin } from '../../plugins/sdk/index.js';

const plugin = createPlugin({ name: 'bench-echo', version: '1.0.0', role: 'editor', endpoint: process.argv[2]! });
plugin.tool({ name: 'echo', description: 'Echoes its text.', input: z.object({ text: z.string() }), handler: (args) => args });
await plugin.connect();
console.log('connected');
process.on('SIGTERM', () => {
  void plugin.disconnect().finally(() => process.exit(0));
});
