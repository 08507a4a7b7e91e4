/**
 * The gate every tool call passes: evaluates the policy, refuses denied calls, and holds `ask` calls until
 * the operator decides, the approval timeout passes or the agent gives up. A decision must quote the
 * digest of what the operator saw (session + tool + canonical arguments + policy version), and the call
 * then runs with exactly the arguments that digest covers.
 */
import { randomUUID } from 'node:crypto';
import type { CallApprovalView, CallDecisionRequest, PolicyRule, CallGate, GateRequest, GateVerdict, ToolTarget } from '../contracts/index.js';
import { cappedJson } from '../shared/index.js';
import { JunctionError, next } from '../contracts/index.js';
import { canonicalJson, decisionDigest } from './canonical.js';
import { evaluate, type CallFacts, type Evaluation } from './engine.js';
import type { PolicyStore } from './policy-store.js';

export interface CallApprovalEvents {
  requested(approval: CallApprovalView): void;
  decided(approval: CallApprovalView): void;
}

export interface CallApprovalsOptions {
  store: PolicyStore;
  timeoutMs: number;
  events: CallApprovalEvents;
  /** How often a waiting agent that sent a progress token is told it is still waiting. */
  tickMs?: number;
  /** Decided approvals kept for the console. */
  keepDecided?: number;
  /** Largest arguments a decided approval keeps whole; larger ones keep a JSON text preview. */
  decidedArgumentBytes?: number;
  now?: () => number;
}

interface Held {
  view: CallApprovalView;
  rule: PolicyRule;
  request: GateRequest;
  args: Record<string, unknown>;
  /** An always-allow decision is writing the policy; the timeout waits for it. */
  deciding: boolean;
  timedOutWhileDeciding: boolean;
  settle(verdict: GateVerdict): void;
}

const DECIDED_ARGUMENT_BYTES = 16 * 1024;

export function targetLabel(target: ToolTarget): string {
  if (target.source === 'host') return 'host';
  if (target.source === 'plugin') return `plugin:${target.plugin}`;
  return `bridge:${target.role ?? 'any'}${target.plugin ? ` ${target.plugin}` : ''}`;
}

/**
 * A call's facts for the policy engine. `target` reads through to the request only when a rule on the
 * source asks (reading it routes the call); a prototype getter, because an object literal with a getter
 * is built through V8's slow path on every call.
 */
class RequestFacts implements CallFacts {
  readonly tool: string;
  readonly annotations: CallFacts['annotations'];
  readonly agentName: string;

  constructor(
    private readonly request: GateRequest,
    readonly args: Record<string, unknown>,
  ) {
    this.tool = request.tool;
    this.annotations = request.descriptor.annotations;
    this.agentName = request.agentName;
  }

  get target(): ToolTarget {
    return this.request.target;
  }
}

export class CallApprovals implements CallGate {
  private readonly held = new Map<string, Held>();
  private readonly decided: CallApprovalView[] = [];
  /** session → grant keys of `allow for this session` decisions. */
  private readonly grants = new Map<string, Set<string>>();
  private readonly now: () => number;
  private readonly unsubscribe: () => void;

  constructor(private readonly options: CallApprovalsOptions) {
    this.now = options.now ?? Date.now;
    this.unsubscribe = options.store.onChanged(() => this.rejudgeHeld());
  }

  pending(): CallApprovalView[] {
    return [...this.held.values()].map((h) => h.view);
  }

  /** Pending first, then the recent decisions, oldest first. */
  views(): CallApprovalView[] {
    return [...this.decided, ...this.pending()];
  }

  authorize(request: GateRequest): GateVerdict | Promise<GateVerdict> {
    const judged = this.judge(request, request.args);
    return judged.kind === 'final' ? judged.verdict : this.hold(request, judged.evaluation, judged.rule, judged.version);
  }

  /**
   * After a policy change or a session grant every held call is judged again: one the new policy allows or denies is released
   * with that verdict; one still asked is re-bound to the new version (the console sees a new digest, so a
   * decision taken on the outdated view is refused rather than applied to something else).
   */
  private rejudgeHeld(): void {
    for (const entry of [...this.held.values()]) {
      if (entry.deciding) continue;
      const judged = this.judge(entry.request, entry.args);
      if (judged.kind === 'final') {
        this.finish(entry, judged.verdict.allowed ? 'allowed' : 'denied', judged.verdict.decision.decision, undefined, judged.verdict);
        continue;
      }
      if (judged.version === entry.view.policyVersion) continue;
      entry.rule = judged.rule;
      entry.view = {
        ...entry.view,
        policyVersion: judged.version,
        ruleIndex: judged.evaluation.ruleIndex!,
        reason: judged.evaluation.reason,
        digest: decisionDigest({ session: entry.request.session, tool: entry.view.tool, args: entry.args, policyVersion: judged.version }),
      };
      this.options.events.requested(entry.view);
    }
  }

  private judge(request: GateRequest, args: Record<string, unknown>): { kind: 'final'; verdict: GateVerdict } | { kind: 'ask'; evaluation: Evaluation; rule: PolicyRule; version: number } {
    const { compiled, version } = this.options.store.current();
    const evaluation = evaluate(compiled, new RequestFacts(request, args));
    const base = { action: evaluation.action, ruleIndex: evaluation.ruleIndex, reason: evaluation.reason, policyVersion: version };
    if (evaluation.action === 'allow') return { kind: 'final', verdict: { allowed: true, args, decision: { ...base, decidedBy: 'policy', decision: 'allow-once' } } };
    if (evaluation.action === 'deny') {
      return {
        kind: 'final',
        verdict: {
          allowed: false,
          decision: { ...base, decidedBy: 'policy', decision: 'deny' },
          error: { code: 'ApprovalDenied', message: `The approval policy denies '${request.tool}': ${evaluation.reason}.`, details: { decidedBy: 'policy', ruleIndex: evaluation.ruleIndex } },
        },
      };
    }
    const rule = compiled.document.rules[evaluation.ruleIndex!]!;
    if (this.grants.get(request.session)?.has(grantKey(request.tool, rule))) {
      return { kind: 'final', verdict: { allowed: true, args, decision: { ...base, decidedBy: 'operator', decision: 'allow-session' } } };
    }
    return { kind: 'ask', evaluation, rule, version };
  }

  /** Applies an operator's decision; a clear error when the call already ended, another console decided first, or the digest differs. */
  async decide(request: CallDecisionRequest): Promise<CallApprovalView> {
    const entry = this.held.get(request.askId);
    if (!entry) {
      const past = this.decided.find((v) => v.askId === request.askId);
      if (past) {
        throw new JunctionError('Conflict', `The call is no longer waiting: it was ${past.state}${past.decision ? ` (${past.decision})` : ''}.`, {
          details: { askId: request.askId, state: past.state, ...(past.decision ? { decision: past.decision } : {}) },
        });
      }
      throw new JunctionError('ApprovalNotFound', `No held call '${request.askId}'.`, { details: { askId: request.askId } });
    }
    if (entry.deciding) throw new JunctionError('Conflict', 'Another decision on this call is being applied.', { details: { askId: request.askId } });
    if (request.digest !== entry.view.digest) {
      throw new JunctionError('Conflict', 'The decision quotes a different call (digest mismatch); reload the approval and decide again.', { details: { askId: request.askId } });
    }
    switch (request.decision) {
      case 'allow-once':
        return this.finish(entry, 'allowed', 'allow-once');
      case 'allow-session': {
        const keys = this.grants.get(entry.request.session) ?? new Set<string>();
        keys.add(grantKey(entry.view.tool, entry.rule));
        this.grants.set(entry.request.session, keys);
        const view = this.finish(entry, 'allowed', 'allow-session');
        // Other calls of that session held by the same rule are covered by the grant too.
        this.rejudgeHeld();
        return view;
      }
      case 'deny': {
        const reason = request.reason?.trim();
        if (!reason) throw new JunctionError('InvalidArguments', 'A denial needs a reason; the agent receives it.', { next: next('fixArguments') });
        return this.finish(entry, 'denied', 'deny', reason);
      }
      case 'always':
        return this.alwaysAllow(entry);
    }
  }

  /** Forgets the session's grants (its transport closed). */
  endSession(session: string): void {
    this.grants.delete(session);
  }

  /** Ends every held call (refused as cancelled) so a closing server leaves no timers behind. */
  close(): void {
    this.unsubscribe();
    for (const entry of [...this.held.values()]) this.finish(entry, 'cancelled');
  }

  private async alwaysAllow(entry: Held): Promise<CallApprovalView> {
    entry.deciding = true;
    try {
      await this.options.store.alwaysAllow(entry.view.tool, entry.rule, entry.view.ruleIndex, entry.view.policyVersion);
    } catch (error) {
      entry.deciding = false;
      if (entry.timedOutWhileDeciding) this.finish(entry, 'timedOut');
      throw error;
    }
    entry.deciding = false;
    // The rule is saved even when the agent gave up meanwhile; then the view says so.
    return this.held.has(entry.view.askId) ? this.finish(entry, 'allowed', 'always') : (this.decided.find((v) => v.askId === entry.view.askId) ?? entry.view);
  }

  private hold(request: GateRequest, evaluation: Evaluation, rule: PolicyRule, version: number): Promise<GateVerdict> {
    const args = structuredClone(request.args);
    const requestedAt = this.now();
    const timeoutMs = this.options.timeoutMs;
    const view: CallApprovalView = {
      askId: randomUUID(),
      callId: request.callId,
      digest: decisionDigest({ session: request.session, tool: request.tool, args, policyVersion: version }),
      policyVersion: version,
      tool: request.tool,
      ...(request.descriptor.description !== undefined ? { description: request.descriptor.description } : {}),
      ...(request.descriptor.annotations ? { annotations: { ...request.descriptor.annotations } } : {}),
      agent: request.agent,
      agentName: request.agentName,
      transport: request.transport,
      target: targetLabel(request.target),
      arguments: args,
      argumentBytes: Buffer.byteLength(canonicalJson(args), 'utf8'),
      ruleIndex: evaluation.ruleIndex!,
      reason: evaluation.reason,
      requestedAt,
      expiresAt: requestedAt + timeoutMs,
      state: 'pending',
    };
    return new Promise<GateVerdict>((resolve) => {
      const tell = (): void => {
        const elapsed = this.now() - requestedAt;
        request.progress?.({ progress: Math.floor(elapsed / 1000), total: Math.ceil(timeoutMs / 1000), message: `Waiting for the operator to approve '${request.tool}' (${evaluation.reason})` });
      };
      const onAbort = (): void => {
        const entry = this.held.get(view.askId);
        if (entry) this.finish(entry, 'cancelled');
      };
      const timer = setTimeout(() => {
        const entry = this.held.get(view.askId);
        if (!entry) return;
        if (entry.deciding) entry.timedOutWhileDeciding = true;
        else this.finish(entry, 'timedOut');
      }, timeoutMs);
      const ticker = request.progress ? setInterval(tell, this.options.tickMs ?? 1000) : undefined;
      const entry: Held = {
        view,
        rule,
        request,
        args,
        deciding: false,
        timedOutWhileDeciding: false,
        settle: (verdict) => {
          clearTimeout(timer);
          if (ticker) clearInterval(ticker);
          request.signal.removeEventListener('abort', onAbort);
          resolve(verdict);
        },
      };
      this.held.set(view.askId, entry);
      request.signal.addEventListener('abort', onAbort, { once: true });
      this.options.events.requested(view);
      tell();
      if (request.signal.aborted) onAbort();
    });
  }

  /** `verdict` overrides the one derived from the state (a policy change releasing the call). */
  private finish(entry: Held, state: Exclude<CallApprovalView['state'], 'pending'>, decision?: CallApprovalView['decision'], operatorReason?: string, verdict?: GateVerdict): CallApprovalView {
    if (!this.held.delete(entry.view.askId)) return entry.view;
    const decidedAt = this.now();
    entry.view = {
      ...entry.view,
      state,
      decidedAt,
      // The operator saw the whole arguments while the call was held; what the console keeps afterwards is bounded.
      arguments: this.decidedArguments(entry.args),
      ...(decision ? { decision } : {}),
      ...(operatorReason !== undefined ? { operatorReason } : {}),
    };
    // The wait is part of the decision, so the console and the audit trail can time what the call itself took.
    const judged = verdict ?? this.verdictOf(entry);
    const outcome = { ...judged, decision: { ...judged.decision, askId: entry.view.askId, heldMs: decidedAt - entry.view.requestedAt } };
    entry.view = { ...entry.view, decidedBy: outcome.decision.decidedBy };
    this.decided.push(entry.view);
    const keep = this.options.keepDecided ?? 200;
    if (this.decided.length > keep) this.decided.splice(0, this.decided.length - keep);
    this.options.events.decided(entry.view);
    entry.settle(outcome);
    return entry.view;
  }

  private decidedArguments(args: Record<string, unknown>): unknown {
    const capped = cappedJson(args, this.options.decidedArgumentBytes ?? DECIDED_ARGUMENT_BYTES);
    return capped.truncated ? (JSON.parse(capped.json) as string) : args;
  }

  private verdictOf(entry: Held): GateVerdict {
    const v = entry.view;
    const base = { action: 'ask' as const, ruleIndex: v.ruleIndex, reason: v.reason, policyVersion: v.policyVersion, askId: v.askId };
    const seconds = Math.round(this.options.timeoutMs / 1000);
    switch (v.state) {
      case 'allowed':
        return { allowed: true, args: structuredClone(entry.args), decision: { ...base, decidedBy: 'operator', decision: v.decision ?? 'allow-once' } };
      case 'denied':
        return {
          allowed: false,
          decision: { ...base, decidedBy: 'operator', decision: 'deny', ...(v.operatorReason !== undefined ? { operatorReason: v.operatorReason } : {}) },
          error: { code: 'ApprovalDenied', message: `The operator denied '${v.tool}': ${v.operatorReason ?? 'no reason given'}`, details: { askId: v.askId, decidedBy: 'operator', reason: v.operatorReason ?? '' } },
        };
      case 'timedOut':
        return {
          allowed: false,
          decision: { ...base, decidedBy: 'timeout', decision: 'deny' },
          error: { code: 'ApprovalTimedOut', message: `No operator decision on '${v.tool}' within ${seconds} seconds; the call was not run.`, next: next('retryLater', v.tool), details: { askId: v.askId, timeoutSeconds: seconds } },
        };
      default:
        return {
          allowed: false,
          decision: { ...base, decidedBy: 'cancelled', decision: 'deny' },
          error: { code: 'ApprovalDenied', message: `The call to '${v.tool}' ended while it waited for the operator; it was not run.`, details: { askId: v.askId, decidedBy: 'cancelled' } },
        };
    }
  }
}

function grantKey(tool: string, rule: PolicyRule): string {
  return `${tool}\0${canonicalJson(rule)}`;
}

