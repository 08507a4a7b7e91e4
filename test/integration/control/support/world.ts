/**
 * A small in-memory Junction for console tests: state the providers read, commands that change it and
 * publish the matching events, and a record of the commands the console issued.
 */
import { JunctionError, type ErrorCode } from '../../../../src-main/contracts/errors.js';
import { createControlHub, type ControlHub } from '../../../../src-main/control/index.js';
import { type ApprovalView, type BridgeView, type CallView, type PluginView, type RecoveryView, type WorkspaceView } from '../../../../src-main/contracts/index.js';

export interface WorldCommand {
  command: string;
  args: unknown[];
}

export interface World {
  hub: ControlHub;
  commands: WorldCommand[];
  plugins: Map<string, PluginView>;
  workspaces: Map<string, WorkspaceView>;
  approvals: Map<string, ApprovalView>;
  connectPlugin(plugin: Partial<PluginView> & { connectionId: string }): PluginView;
  startCall(call: Partial<CallView> & { callId: string }): CallView;
  finishCall(callId: string, patch?: Partial<CallView>, args?: unknown, result?: unknown): CallView;
  requestApproval(approval: Partial<ApprovalView> & { approvalId: string }): ApprovalView;
  setWorkspace(workspace: WorkspaceView): void;
  setRecovery(recovery: RecoveryView): void;
}

export const SAMPLE_DIFF = ['--- a/src/app.ts', '+++ b/src/app.ts', '@@ -1,3 +1,3 @@', ' import { run } from "./run";', '-run(1);', '+run(2);', ' export {};'].join('\n');

export function sampleWorkspace(id = 'ws-1'): WorkspaceView {
  const now = Date.now();
  return {
    workspaceId: id,
    root: '/tmp/project',
    name: 'project',
    epoch: 1,
    trusted: true,
    mode: 'approval-required',
    documentCount: 12,
    transaction: {
      workspaceId: id,
      transactionId: 'tx-1',
      state: 'active',
      startedAt: now - 60_000,
      revisions: [
        { revision: 1, summary: 'rename run argument', stagedAt: now - 50_000, files: [{ path: 'src/app.ts', change: 'modify', diff: SAMPLE_DIFF, truncated: false }], diagnosticsAdded: [], diagnosticsRemoved: [] },
        {
          revision: 2,
          summary: 'fix type error',
          stagedAt: now - 20_000,
          files: [{ path: 'src/app.ts', change: 'modify', diff: SAMPLE_DIFF, truncated: false }],
          diagnosticsAdded: [{ path: 'src/app.ts', line: 1, column: 4, code: 'TS2345', message: 'Argument of type string is not assignable.', category: 'error' }],
          diagnosticsRemoved: [{ path: 'src/app.ts', line: 0, column: 0, code: 'TS6133', message: 'run is declared but never used.', category: 'warning' }],
        },
      ],
    },
  };
}

export function sampleRecovery(): RecoveryView {
  return {
    stateDir: '/tmp/state',
    healthy: false,
    owner: { instanceId: 'inst-1', pid: 4242, startedAt: Date.now() - 3_600_000 },
    entries: [
      { manifestPath: 'journal/tx-0.json', transactionId: 'tx-0', workspaceRoot: '/tmp/project', formatVersion: 1, outcome: 'completed', files: 2, detail: 'Re-applied 2 files from the journal.', at: Date.now() - 10_000 },
      { manifestPath: 'journal/tx-9.json', formatVersion: 9, outcome: 'unsupported', files: 0, detail: 'formatVersion 9 is newer than this Junction (1).', at: Date.now() - 9_000 },
    ],
    guidance: 'Upgrade Junction to a version that reads journal format 9, or move the manifest aside after inspecting it.',
  };
}

function absent(code: ErrorCode, message: string): never {
  throw new JunctionError(code, message);
}

export function createWorld(version = '0.1.0-test'): World {
  const commands: WorldCommand[] = [];
  const plugins = new Map<string, PluginView>();
  const workspaces = new Map<string, WorkspaceView>();
  const approvals = new Map<string, ApprovalView>();
  const calls = new Map<string, CallView>();
  let recovery = sampleRecovery();
  let bridge: BridgeView = {
    running: true,
    host: '127.0.0.1',
    port: 8765,
    hubUrl: 'http://127.0.0.1:8765/hub/mcp-server',
    mcpUrl: 'http://127.0.0.1:8765/mcp',
    apiUrl: 'http://127.0.0.1:8765/api/tools',
    transports: ['streamable-http', 'stdio'],
    snippets: [
      { client: 'Claude Desktop', format: 'json', text: '{ "mcpServers": { "junction": { "command": "junction", "args": ["connect"] } } }' },
      { client: 'Shell', format: 'shell', text: 'junction connect' },
    ],
  };

  const hub: ControlHub = createControlHub({ version });
  hub.serve({
    providers: {
      plugins: () => [...plugins.values()],
      workspaces: () => [...workspaces.values()],
      approvals: () => [...approvals.values()],
      recovery: () => recovery,
      bridge: () => bridge,
      tools: () => [],
      pluginCatalogue: () => undefined,
    },
    commands: {
      async approve({ approvalId }) {
        commands.push({ command: 'approve', args: [approvalId] });
        return decide(approvalId, 'approved');
      },
      async deny({ approvalId, reason }) {
        commands.push({ command: 'deny', args: [approvalId, reason] });
        return decide(approvalId, 'denied', reason);
      },
      async openWorkspace({ root, trusted }) {
        commands.push({ command: 'openWorkspace', args: [root, { trusted }] });
        throw new JunctionError('WorkspaceNotFound', `No workspace at ${root}.`);
      },
      async rollback({ workspaceId, toRevision }) {
        commands.push({ command: 'rollback', args: [workspaceId, toRevision] });
        const ws = workspaces.get(workspaceId);
        if (!ws?.transaction) throw new JunctionError('WorkspaceNotFound', `No workspace ${workspaceId}.`);
        const updated: WorkspaceView = { ...ws, transaction: { ...ws.transaction, revisions: ws.transaction.revisions.filter((r) => r.revision <= toRevision) } };
        world.setWorkspace(updated);
        return updated;
      },
      async startBridge() {
        commands.push({ command: 'startBridge', args: [] });
        bridge = { ...bridge, running: true };
        hub.publish({ type: 'bridge.state', bridge });
        return bridge;
      },
      async stopBridge() {
        commands.push({ command: 'stopBridge', args: [] });
        bridge = { ...bridge, running: false };
        hub.publish({ type: 'bridge.state', bridge });
        return bridge;
      },
      async recover() {
        commands.push({ command: 'recover', args: [] });
        return recovery;
      },
      async replay({ callId }) {
        commands.push({ command: 'replay', args: [callId] });
        throw new JunctionError('ReplayRefused', 'This test world records no calls to replay.');
      },
      // What this world has no room for answers as a Junction without it would: nothing to act on.
      setProjectRouting: () => absent('ActionUnsupported', 'This test world has no project routing.'),
      runTool: () => absent('ToolNotFound', 'This test world has no tools.'),
      settings: () => absent('ActionUnsupported', 'This test world has no settings.'),
      updateSetting: () => absent('ActionUnsupported', 'This test world has no settings.'),
      answerElicitation: () => absent('ActionUnsupported', 'This test world has no console elicitation queue.'),
      setElicitationAnswerer: () => absent('ActionUnsupported', 'This test world has no console elicitation queue.'),
      answerSampling: () => absent('ActionUnsupported', 'This test world has no console elicitation queue.'),
      decideCall: () => absent('ApprovalNotFound', 'This test world holds no calls for approval.'),
      callApprovalArguments: () => absent('ApprovalNotFound', 'This test world holds no calls for approval.'),
      previewAlwaysAllow: () => absent('ApprovalNotFound', 'This test world holds no calls for approval.'),
      undoAlwaysAllow: () => absent('PolicyInvalid', 'This test world has no approval policy to edit.'),
      sessionGrants: () => [],
      revokeSessionGrant: () => absent('ApprovalNotFound', 'This test world holds no session grants.'),
      decisionLog: () => [],
      savePolicy: () => absent('PolicyInvalid', 'This test world has no approval policy to edit.'),
      setToolVisible: () => absent('PolicyInvalid', 'This test world has no approval policy to edit.'),
      agentCatalogue: ({ agentName }) => ({ agentName, tools: [] }),
    },
  });

  function decide(approvalId: string, state: 'approved' | 'denied', reason?: string): ApprovalView {
    const approval = approvals.get(approvalId);
    if (!approval || approval.state !== 'pending') throw new JunctionError('ReceiptInvalid', `Approval ${approvalId} is not pending.`);
    const decided: ApprovalView = { ...approval, state, decidedAt: Date.now(), ...(reason === undefined ? {} : { reason }) };
    approvals.set(approvalId, decided);
    hub.publish({ type: 'approval.decided', approval: decided });
    return decided;
  }

  const world: World = {
    hub,
    commands,
    plugins,
    workspaces,
    approvals,
    connectPlugin(partial) {
      const plugin: PluginView = { role: 'editor', name: 'Demo app', connectedAt: Date.now(), reconnects: 0, toolCount: 3, promptCount: 0, resourceCount: 0, state: 'connected', ...partial };
      plugins.set(plugin.connectionId, plugin);
      hub.publish({ type: 'plugin.connected', plugin });
      return plugin;
    },
    startCall(partial) {
      const call: CallView = { agent: 'agent-1', transport: 'mcp-http', tool: 'document-read', target: 'host', status: 'running', startedAt: Date.now(), requestBytes: 120, ...partial };
      calls.set(call.callId, call);
      hub.publish({ type: 'call.started', call });
      return call;
    },
    finishCall(callId, patch = {}, args = {}, result = {}) {
      const started = calls.get(callId);
      if (!started) throw new Error(`unknown call ${callId}`);
      const call: CallView = { ...started, status: 'ok', durationMs: 12, responseBytes: 340, ...patch };
      calls.set(callId, call);
      hub.publish({ type: 'call.finished', call });
      hub.recordCallDetail(callId, { arguments: JSON.stringify(args), result: JSON.stringify(result) });
      return call;
    },
    requestApproval(partial) {
      const approval: ApprovalView = {
        workspaceId: 'ws-1',
        transactionId: 'tx-1',
        revision: 2,
        requestedAt: Date.now(),
        files: [{ path: 'src/app.ts', change: 'modify', diff: SAMPLE_DIFF, truncated: false }],
        state: 'pending',
        ...partial,
      };
      approvals.set(approval.approvalId, approval);
      hub.publish({ type: 'approval.requested', approval });
      return approval;
    },
    setWorkspace(workspace) {
      workspaces.set(workspace.workspaceId, workspace);
      hub.publish({ type: 'workspace.updated', workspace });
    },
    setRecovery(next) {
      recovery = next;
      hub.publish({ type: 'recovery.state', recovery });
    },
  };
  return world;
}
