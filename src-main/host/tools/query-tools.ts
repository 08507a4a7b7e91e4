/** document-read, diagnostics, find-symbols, find-references: read-only views of the effective snapshot. */
import { z } from 'zod';
import { JunctionError, next } from '../../contracts/index.js';
import type { HostCore } from './host-core.js';
import { diagnostics, findReferences, findSymbols, readDocument, assertSnapshot } from '../operations/index.js';
import { defineTool, type HostTool } from './define-tool.js';
import { bounded, diagnosticView, effectiveLimit, expectedSnapshot, limit, location, position, range, snapshotIdentity, workspaceSelector } from './schemas.js';

const DIAGNOSTICS_LIMIT = 100;
const SYMBOLS_LIMIT = 50;
const REFERENCES_LIMIT = 100;

export function queryTools(core: HostCore): HostTool[] {
  return [
    defineTool({
      name: 'document-read',
      title: 'Read document',
      description: 'Text of a document in the current snapshot (the active transaction\'s head when one is active), whole or a range. A range requires expectedSnapshot.',
      readOnly: true,
      input: z.object({ workspace: workspaceSelector, path: z.string().min(1), range: range.optional(), expectedSnapshot: expectedSnapshot.optional() }),
      output: z.object({
        snapshot: snapshotIdentity,
        path: z.string(),
        text: z.string(),
        start: z.number().int().min(0),
        end: z.number().int().min(0),
        length: z.number().int().min(0),
        lineCount: z.number().int().min(1),
      }),
      handler: (args) => {
        const w = core.registry.resolve(args.workspace);
        if (args.expectedSnapshot) assertSnapshot(w, args.expectedSnapshot);
        else if (args.range) {
          throw new JunctionError('InvalidArguments', 'A range is a position: pass expectedSnapshot with it.', { next: next('refreshSnapshot', 'workspace-status') });
        }
        return readDocument(w, args.path, args.range);
      },
    }),
    defineTool({
      name: 'diagnostics',
      title: 'Diagnostics',
      description: 'Compiler diagnostics of the current snapshot, in path order; positions are zero-based.',
      readOnly: true,
      input: z.object({
        workspace: workspaceSelector,
        paths: z.array(z.string().min(1)).max(200).optional().describe('Only these documents; default all.'),
        expectedSnapshot: expectedSnapshot.optional(),
        limit: limit(DIAGNOSTICS_LIMIT, 2000),
      }),
      output: bounded(diagnosticView).extend({ snapshot: snapshotIdentity }),
      handler: (args) => {
        const w = core.registry.resolve(args.workspace);
        if (args.expectedSnapshot) assertSnapshot(w, args.expectedSnapshot);
        return { snapshot: w.identity(), ...diagnostics(w, args.paths, effectiveLimit(args.limit, DIAGNOSTICS_LIMIT)) };
      },
    }),
    defineTool({
      name: 'find-symbols',
      title: 'Find symbols',
      description: 'Declarations in the workspace whose names match the query (case-insensitive, fuzzy as in an editor\'s go-to-symbol).',
      readOnly: true,
      input: z.object({ workspace: workspaceSelector, query: z.string().min(1), limit: limit(SYMBOLS_LIMIT, 1000) }),
      output: bounded(z.object({ name: z.string(), kind: z.string(), containerName: z.string(), ...location })).extend({ snapshot: snapshotIdentity }),
      handler: (args) => {
        const w = core.registry.resolve(args.workspace);
        return { snapshot: w.identity(), ...findSymbols(w, args.query, effectiveLimit(args.limit, SYMBOLS_LIMIT)) };
      },
    }),
    defineTool({
      name: 'find-references',
      title: 'Find references',
      description: 'Every reference to the symbol at a position, definitions included, within the workspace.',
      readOnly: true,
      input: z.object({ workspace: workspaceSelector, expectedSnapshot, path: z.string().min(1), position, limit: limit(REFERENCES_LIMIT, 5000) }),
      output: bounded(z.object({ ...location, isDefinition: z.boolean(), isWriteAccess: z.boolean(), lineText: z.string() })).extend({ snapshot: snapshotIdentity }),
      handler: (args) => {
        const w = core.registry.resolve(args.workspace);
        assertSnapshot(w, args.expectedSnapshot);
        return { snapshot: w.identity(), ...findReferences(w, args.path, args.position, effectiveLimit(args.limit, REFERENCES_LIMIT)) };
      },
    }),
  ];
}
