/**
 * Example query plugin: lists TODO-style comments. Shows the bounded-results contract: the scan stops as
 * soon as it has one item beyond the limit, so `hasMore` is exact without scanning everything.
 */
import { z } from 'zod';
import { boundedCollection, boundedCollectionSchema, defineQueryTool, definePlugin, effectiveLimit, limitSchema, PLUGIN_API_V1, type QueryContext } from '../../../host-api/index.js';

const DEFAULT_LIMIT = 50;
const MAX_TEXT = 200;
const MARKER = /\/\/\s*(TODO|FIXME|HACK)\b:?\s*(.*)$/gm;

const request = z.object({
  pathPrefix: z.string().optional().describe('Only documents whose workspace-relative path starts with this prefix.'),
  tags: z.array(z.enum(['TODO', 'FIXME', 'HACK'])).min(1).nullable().default(null).describe('Markers to report; null reports all three.'),
  limit: limitSchema(DEFAULT_LIMIT),
});

const comment = z.object({ path: z.string(), line: z.number().int(), column: z.number().int(), tag: z.string(), text: z.string() });
const response = z.object({ comments: boundedCollectionSchema(comment) });

type Comment = z.infer<typeof comment>;

function scan(path: string, text: string, tags: ReadonlySet<string> | null): Comment[] {
  const out: Comment[] = [];
  let line = 0;
  let lineStart = 0;
  for (const match of text.matchAll(MARKER)) {
    const tag = match[1]!;
    if (tags && !tags.has(tag)) continue;
    for (let i = lineStart; i < match.index; i++) {
      if (text.charCodeAt(i) === 10) {
        line++;
        lineStart = i + 1;
      }
    }
    out.push({ path, line, column: match.index - lineStart, tag, text: match[2]!.trim().slice(0, MAX_TEXT) });
  }
  return out;
}

export default definePlugin({
  id: 'examples.todo-comments',
  apiVersion: PLUGIN_API_V1,
  version: '1.0.0',
  queries: [
    defineQueryTool({
      name: 'todo-comments',
      description: 'Lists TODO, FIXME and HACK line comments in the workspace, in path order.',
      request,
      response,
      handler: {
        async handle(req, context: QueryContext) {
          const limit = effectiveLimit(req.limit, DEFAULT_LIMIT);
          const tags = req.tags ? new Set<string>(req.tags) : null;
          const items: Comment[] = [];
          let hasMore = false;
          for (const path of context.snapshot.paths()) {
            if (req.pathPrefix !== undefined && !path.startsWith(req.pathPrefix)) continue;
            context.signal.throwIfAborted();
            const doc = context.snapshot.document(path);
            if (!doc) continue;
            // Per-document scans are keyed by content, so repeated documents in one invocation scan once.
            const found = await context.cache.getOrCreate(['todo-scan', doc.sha256, req.tags], () => scan(path, doc.text, tags));
            for (const item of found) {
              if (items.length === limit) {
                hasMore = true;
                break;
              }
              items.push({ ...item, path });
            }
            if (hasMore) break;
          }
          return { comments: boundedCollection(items, { limit, hasMore }) };
        },
      },
    }),
  ],
});
