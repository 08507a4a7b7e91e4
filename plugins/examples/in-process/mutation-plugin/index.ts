/**
 * Example mutation plugin: prepends a header comment to one document. It only returns a candidate; the
 * host validates it and stages it into the active transaction.
 */
import { z } from 'zod';
import { defineMutationTool, definePlugin, PLUGIN_API_V1, type MutationContext } from '../../../host-api/index.js';

const request = z.object({
  path: z.string().min(1).describe('Workspace-relative path of the document.'),
  header: z.string().min(1).max(2000).describe('Header text without comment markers; each line becomes a `//` comment line.'),
});

function renderHeader(header: string): string {
  return header
    .split(/\r?\n/)
    .map((line) => (line === '' ? '//' : `// ${line}`))
    .join('\n');
}

export default definePlugin({
  id: 'examples.add-file-header',
  apiVersion: PLUGIN_API_V1,
  version: '1.0.0',
  mutations: [
    defineMutationTool({
      name: 'add-file-header',
      description: 'Prepends a header comment to a document unless the document already starts with it.',
      request,
      handler: {
        handle(req, context: MutationContext) {
          const path = context.resolver.resolvePath(req.path);
          const doc = context.snapshot.document(path)!;
          const header = renderHeader(req.header);
          if (doc.text.startsWith(header)) return { candidate: [], summary: `'${path}' already starts with the header` };
          return { candidate: [{ kind: 'write', path, text: `${header}\n${doc.text}` }], summary: `Add a header to '${path}'` };
        },
      },
    }),
  ],
});
