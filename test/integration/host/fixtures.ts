/** Shared set-up for host integration tests: a temp copy of the demo workspace and a real journal. */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createJournal } from '../../../src-main/recovery/index.js';
import { createHost, type Host, type HostMode } from '../../../src-main/host/index.js';
import type { OutputSchemaPublication } from '../../../src-main/host/index.js';
import { connectInMemory, type InMemoryMcp as Connected } from '../../support/mcp-in-memory.js';

export const DEMO_WORKSPACE = join(import.meta.dirname, '../../../demo/workspace');

export interface HostFixture {
  dir: string;
  root: string;
  host: Host;
  mcp: Connected;
  cleanup(): Promise<void>;
}

export async function startHost(mode: HostMode, options: { toolOutputSchema?: OutputSchemaPublication; trusted?: boolean; watch?: boolean } = {}): Promise<HostFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'junction-host-'));
  const root = join(dir, 'workspace');
  await cp(DEMO_WORKSPACE, root, { recursive: true });
  const journal = createJournal({ stateDir: join(dir, 'state'), instanceId: 'host-test' });
  await journal.open();
  const host = createHost({ mode, toolOutputSchema: options.toolOutputSchema ?? 'publish', journal, watch: options.watch ?? false });
  await host.openWorkspace(root, { trusted: options.trusted ?? true });
  const mcp = await connectInMemory([host.toolSource]);
  return {
    dir,
    root,
    host,
    mcp,
    async cleanup() {
      await mcp.close();
      host.close();
      await journal.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Calls a tool and returns its structured content, with the error (if any) as a typed object. */
export async function call(mcp: Connected, name: string, args: Record<string, unknown> = {}): Promise<{ isError: boolean; value: Record<string, unknown>; error: { code: string; message: string; next?: { kind: string; tools: string[] }; details?: Record<string, unknown> } }> {
  const result = await mcp.client.callTool({ name, arguments: args });
  const value = (result.structuredContent ?? {}) as Record<string, unknown>;
  return { isError: result.isError === true, value, error: value.error as never };
}

export async function snapshotOf(mcp: Connected): Promise<Record<string, unknown>> {
  const status = await call(mcp, 'workspace-status');
  const items = status.value.items as Array<{ snapshot: Record<string, unknown> }>;
  return items[0]!.snapshot;
}
