/**
 * Runs the scene example standalone:
 *   node --import tsx plugins/examples/scene/main.ts --endpoint http://127.0.0.1:8080/hub/mcp-server --role editor
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DEFAULT_ENDPOINT } from '../../sdk/index.js';
import { startScenePlugin } from './plugin.js';

const argsSchema = z.object({
  endpoint: z.url().default(DEFAULT_ENDPOINT),
  role: z.enum(['editor', 'runtime']).default('editor'),
  name: z.string().min(1).optional(),
  token: z.string().optional(),
});

const { values } = parseArgs({
  options: { endpoint: { type: 'string' }, role: { type: 'string' }, name: { type: 'string' }, token: { type: 'string' } },
  strict: true,
});
const parsed = argsSchema.safeParse(values);
if (!parsed.success) {
  console.error(`scene plugin: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}`);
  process.exit(2);
}
const options = parsed.data;
const running = await startScenePlugin({
  endpoint: options.endpoint,
  role: options.role,
  ...(options.name ? { name: options.name } : {}),
  ...(options.token ? { token: options.token } : {}),
});
console.error(`scene plugin connected to ${options.endpoint} as ${options.role}`);
running.plugin.on('state', (state) => console.error(`scene plugin: ${state}`));

const shutdown = () => void running.stop().then(() => process.exit(0));
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
