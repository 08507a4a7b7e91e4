/**
 * Many projects in one process, for routing among them: N SDK plugins, each an editor of its own
 * project (root `/bench/crowd/{i}`) publishing one tool. Arguments: the hub endpoint and N. Connects
 * them a few at a time and prints `connected N`; they stay idle until SIGTERM.
 */
import { z } from 'zod';
import { createPlugin, type McpPlugin } from '../../plugins/sdk/index.js';

const [endpoint, countText] = process.argv.slice(2);
const count = Number(countText);
/** Connections opened at once: the hub's negotiate tokens are bounded, and a burst of handshakes would time some out. */
const AT_ONCE = 20;
const plugins: McpPlugin[] = [];
for (let start = 0; start < count; start += AT_ONCE) {
  const batch = Array.from({ length: Math.min(AT_ONCE, count - start) }, (_, k) => {
    const plugin = createPlugin({ name: `crowd-${start + k}`, version: '1.0.0', role: 'editor', endpoint: endpoint!, project: { path: `/bench/crowd/${start + k}` } });
    plugin.tool({ name: 'crowd-echo', description: 'Echoes its text.', input: z.object({ text: z.string() }), handler: (args) => args });
    plugins.push(plugin);
    return plugin.connect();
  });
  await Promise.all(batch);
}
console.log(`connected ${plugins.length}`);
process.on('SIGTERM', () => {
  void Promise.all(plugins.map((plugin) => plugin.disconnect())).finally(() => process.exit(0));
});
