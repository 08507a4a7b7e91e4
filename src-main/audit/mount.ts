/**
 * The audit trail as a part of a running Junction: it records what the console is told (plugins
 * coming and going, workspace changes, approvals, policy edits) by listening to the same event stream,
 * observes every tool call through the dispatcher, and serves the console's history. Off when
 * `audit=false`; redaction applies either way, to the console's call details as well.
 */
import type { ControlCommandHandlers, ControlEvent, ReplayResult } from '../contracts/index.js';
import { JunctionError } from '../contracts/index.js';
import type { HistoryProvider } from '../control/index.js';
import type { CallObserver, Dispatcher } from '../mcp/index.js';
import type { Logger } from '../shared/index.js';
import { compileRedaction, type RedactionRules } from './redact.js';
import { AuditTrail } from './trail.js';

export interface AuditMountContext {
  enabled: boolean;
  stateDir: string;
  /** Extra redaction rules (the `redact` setting). */
  redact: readonly string[];
  retentionDays: number;
  maxMb: number;
  logger: Logger;
  /** The console's event stream: heard for what to record, told when the trail stops recording. */
  events: { subscribe(listener: (event: ControlEvent) => void): () => void; publish(event: ControlEvent): unknown };
}

export interface MountedAudit {
  /** Absent when audit=false. */
  audit: AuditTrail | undefined;
  redaction: RedactionRules;
  observers: CallObserver[];
  views: { history?: HistoryProvider };
  /** The console's replay, through whichever dispatcher the composition builds. */
  commands(dispatcher: Dispatcher): ControlCommandHandlers<'replay'>;
  dispose(): Promise<void>;
}

function record(audit: AuditTrail, event: ControlEvent): void {
  switch (event.type) {
    case 'plugin.connected': {
      const { connectionId, role, name, pluginVersion } = event.plugin;
      audit.plugin('plugin.connected', { connectionId, role, name, pluginVersion: pluginVersion ?? null });
      return;
    }
    case 'plugin.disconnected':
      audit.plugin('plugin.disconnected', { connectionId: event.connectionId });
      return;
    case 'workspace.updated':
      audit.workspaceUpdated(event.workspace);
      return;
    case 'approval.requested':
    case 'approval.decided':
      audit.approval(event.type, event.approval);
      return;
    case 'callApproval.decided':
      audit.callDecided(event.approval);
      return;
    case 'policy.updated':
      audit.policyEdited(event.policy, event.change);
      return;
    default:
      return;
  }
}

export function mountAudit(context: AuditMountContext): MountedAudit {
  const redaction = compileRedaction(context.redact);
  const refused = async (): Promise<ReplayResult> => {
    throw new JunctionError('ReplayRefused', 'The audit trail is off (audit=false), so there is no recorded call to replay.');
  };
  if (!context.enabled) {
    return { audit: undefined, redaction, observers: [], views: {}, commands: () => ({ replay: refused }), dispose: async () => undefined };
  }
  const audit = new AuditTrail({
    stateDir: context.stateDir,
    rules: redaction,
    logger: context.logger,
    retentionDays: context.retentionDays,
    maxMb: context.maxMb,
    notice: (notice) => context.events.publish({ type: 'notice.raised', notice }),
  });
  const unsubscribe = context.events.subscribe((event) => record(audit, event));
  return {
    audit,
    redaction,
    observers: [audit.observer],
    views: { history: audit.history },
    commands: (dispatcher) => ({ replay: ({ callId }) => audit.replay(dispatcher, callId) }),
    dispose() {
      unsubscribe();
      return audit.close();
    },
  };
}
