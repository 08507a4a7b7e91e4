/**
 * A real host over a copy of the fixture project, with code actions composed beside the host tools and
 * both served to a real MCP client. Commits are never made in these tests, so the journal refuses them.
 */
import { cp, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createHost, type Host, type HostJournal, type HostMode, type SnapshotIdentity } from '../../../../../src-main/host/index.js';
import { createCodeActions, type CodeActionOptions, type CodeActions } from '../../../../../src-main/host/code-actions/index.js';
import { connectInMemory, type InMemoryMcp as McpHarness } from '../../../../support/mcp-in-memory.js';

const fixture = fileURLToPath(new URL('../../../../fixtures/code-actions/project/', import.meta.url));

const refusingJournal: HostJournal = {
  commit: () => Promise.reject(new Error('these tests never commit')),
  status: () => ({ stateDir: '', healthy: true, entries: [] }),
  blockedWorkspaces: () => [],
};

/** Copies the fixture project, restoring `.ts` names (stored as `.ts.txt` to stay out of the repository's type check). */
async function copyFixture(target: string): Promise<void> {
  await cp(fixture, target, { recursive: true });
  for (const entry of await readdir(target, { recursive: true })) {
    if (entry.endsWith('.ts.txt')) await rename(join(target, entry), join(target, entry.slice(0, -'.txt'.length)));
  }
}

export type Structured = Record<string, unknown> & { error?: { code: string; message: string; next?: { kind: string; tools: string[] } } };

export interface CodeActionHost {
  root: string;
  host: Host;
  codeActions: CodeActions;
  harness: McpHarness;
  identity(): SnapshotIdentity;
  text(path: string): string | undefined;
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; value: Structured }>;
  close(): Promise<void>;
}

export async function startCodeActionHost(options: Partial<Omit<CodeActionOptions, 'toolOutputSchema'>> & { mode?: HostMode } = {}): Promise<CodeActionHost> {
  const root = await mkdtemp(join(tmpdir(), 'junction-code-actions-'));
  await copyFixture(root);
  const mode = options.mode ?? 'transactional';
  const host = createHost({ mode, toolOutputSchema: 'publish', journal: refusingJournal, watch: false });
  await host.openWorkspace(root, { trusted: true });
  const codeActions = createCodeActions(host, { ...options, mode, toolOutputSchema: 'publish' });
  const harness = await connectInMemory([host.toolSource, codeActions.toolSource]);
  const workspace = () => host.extensions.workspaces.resolve(undefined);
  return {
    root,
    host,
    codeActions,
    harness,
    identity: () => workspace().identity(),
    text: (path) => workspace().snapshot().get(path)?.text,
    async call(name, args) {
      const result = (await harness.client.callTool({ name, arguments: args })) as CallToolResult;
      return { isError: result.isError === true, value: (result.structuredContent ?? {}) as Structured };
    },
    async close() {
      await harness.close();
      host.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}
