/**
 * The large-payload part's plugin process: Junction's own SDK publishing `payload-result` (answers an
 * image block of `bytes` base64 characters, as a screenshot tool does) and `payload-argument` (takes a
 * `data` string, answers its length). Argument: the hub endpoint. Prints `connected`.
 */
import { z } from 'zod';
import { createPlugin } from '../../plugins/sdk/index.js';

const images = new Map<number, string>();
/** One base64 string per size, built once: the plugin stands for an app whose capture is already encoded. */
const imageOf = (bytes: number) => images.get(bytes) ?? images.set(bytes, 'A'.repeat(bytes)).get(bytes)!;

const plugin = createPlugin({ name: 'bench-payload', version: '1.0.0', role: 'editor', endpoint: process.argv[2]! });
plugin.tool({
  name: 'payload-result',
  description: 'Answers an image block of `bytes` base64 characters.',
  input: z.object({ bytes: z.number().int().min(0) }),
  handler: ({ bytes }) => ({ content: [{ type: 'image', data: imageOf(bytes), mimeType: 'image/png' }] }),
});
plugin.tool({
  name: 'payload-argument',
  description: 'Answers the length of its `data` argument.',
  input: z.object({ data: z.string() }),
  handler: ({ data }) => ({ length: data.length }),
});
await plugin.connect();
console.log('connected');
process.on('SIGTERM', () => {
  void plugin.disconnect().finally(() => process.exit(0));
});
