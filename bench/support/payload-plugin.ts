/**
 * The large-payload part's plugin process: Junction's own SDK publishing `payload-result` (answers an
 * image block of `bytes` base64 characters, as a screenshot tool does; built once per size, as an app's
 * capture is already encoded) and `payload-argument` (takes a `data` string, answers its length).
 * Argument: the hub endpoint. Prints `connected`.
 */
import { z } from 'zod';
import { createPlugin } from '../../plugins/sdk/index.js';
import { base64Payload } from './payload-data.js';

const plugin = createPlugin({ name: 'bench-payload', version: '1.0.0', role: 'editor', endpoint: process.argv[2]! });
plugin.tool({
  name: 'payload-result',
  description: 'Answers an image block of `bytes` base64 characters.',
  input: z.object({ bytes: z.number().int().min(0) }),
  handler: ({ bytes }) => ({ content: [{ type: 'image', data: base64Payload(bytes), mimeType: 'image/png' }] }),
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
