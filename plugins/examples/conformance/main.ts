/**
 * Runs the conformance fixture plugin standalone:
 *   node --import tsx plugins/examples/conformance/main.ts --endpoint http://127.0.0.1:8080/hub/mcp-server
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DEFAULT_ENDPOINT } from '../../sdk/index.js';
import { createConformancePlugin } from './plugin.js';

const argsSchema = z.object({ endpoint: z.url().default(DEFAULT_ENDPOINT), token: z.string().optional() });

const { values } = parseArgs({ options: { endpoint: { type: 'string' }, token: { type: 'string' } }, strict: true });
const parsed = argsSchema.safeParse(values);
if (!parsed.success) {
  console.error(`conformance plugin: ${parsed.error.issues.map((i) => `--${i.path.join('.')}: ${i.message}`).join('; ')}`);
  process.exit(2);
}
const plugin = createConformancePlugin({ endpoint: parsed.data.endpoint, ...(parsed.data.token ? { token: parsed.data.token } : {}) });
await plugin.connect();
console.error(`conformance plugin connected to ${parsed.data.endpoint}`);
plugin.on('state', (state) => console.error(`conformance plugin: ${state}`));

const shutdown = () => void plugin.disconnect().then(() => process.exit(0));
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
