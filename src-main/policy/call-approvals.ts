/**
 * The gate every tool call passes: evaluates the policy, refuses denied calls, and holds `ask` calls until
 * the operator decides, the approval timeout passes or the agent gives up. A decision must quote the
 * digest of what the operator saw (session + tool + canonical arguments + policy version), and the call
 * then runs with exactly the arguments that digest covers.
 */
import { randomUUID } from 'node:crypto';
import type { AlwaysAllowPreview, CallApprovalView, CallDecisionRequest, PolicyRule, CallGate, GateRequest, GateVerdict, SessionGrantView, ToolTarget } from '../contracts/index.js';
import { analysePolicy } from './analysis.js';
import { cappedJson, withFields } from '../shared/index.js';
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
  /** How often held calls are routed again to see whether their target changed. */
  targetCheckMs?: number;
  /** Largest arguments a held call's view carries whole; larger ones carry a JSON text preview and the console fetches them on demand. */
  heldArgumentBytes?: number;
  /** Largest arguments a decided approval keeps whole; larger ones keep a JSON text preview. */
  decidedArgumentBytes?: number;
  /** Most calls held at once; the next is refused with `Overloaded` naming the setting. */
  maxHeld?: number;
  /** Most argument bytes (canonical JSON) held at once, over all held calls. */
  maxHeldBytes?: number;
  now?: () => number;
}

interface Held {
  view: CallApprovalView;
  rule: PolicyRule;
  request: GateRequest;
  /** Where the call goes; the decision is bound to it (see targetKey). */
  bound: ToolTarget;
  args: Record<string, unknown>;
  /** An always-allow decision is writing the policy; the timeout waits for it. */
  deciding: boolean;
  timedOutWhileDeciding: boolean;
  settle(verdict: GateVerdict): void;
}

const DECIDED_ARGUMENT_BYTES = 16 * 1024;
/** Held calls are few (approval-max-held) and the operator reads them now, so more of them travels inline. */
const HELD_ARGUMENT_BYTES = 64 * 1024;
export const DEFAULT_MAX_HELD = 100;
export const DEFAULT_MAX_HELD_BYTES = 64 * 1024 * 1024;
const MIB = 1024 * 1024;

export function targetLabel(target: ToolTarget): string {
  if (target.source === 'host') return 'host';
  if (target.source === 'plugin') return `plugin:${target.plugin}`;
  const who = target.plugin ? ` ${target.plugin}` : target.connection === undefined ? ' (no plugin serves it now)' : '';
  return `bridge:${target.role ?? 'any'}${who}${target.project && target.project !== target.plugin ? ` [${target.project}]` : ''}`;
}

/** A target's identity: host, in-process plugin, or plugin connection with its role, name and project. */
function targetKey(target: ToolTarget): string {
  return canonicalJson(target);
}

/** The label of `target` told apart from `other` (a reconnected plugin of the same name differs only in its connection). */
function distinctLabel(target: ToolTarget, other: ToolTarget): string {
  const label = targetLabel(target);
  if (target.source !== 'bridge' || label !== targetLabel(other)) return label;
  return target.connection === undefined ? label : `${label} (connection ${target.connection.slice(0, 8)})`;
}

/** What a session grant is bound to: the tool, the rule, and the serving plugin by name (a reconnect keeps it; another plugin does not). */
function grantKey(tool: string, rule: PolicyRule, target: ToolTarget): string {
  const { connection: _connection, ...named } = target as ToolTarget & { connection?: string };
  return `${tool}\0${canonicalJson(rule)}\0${canonicalJson(named)}`;
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
    /** A held call's bound target, so a re-judgement sees where it goes now. */
    private readonly fixedTarget?: ToolTarget,
  ) {
    this.tool = request.tool;
    this.annotations = request.descriptor.annotations;
    this.agentName = request.agentName;
  }

  get target(): ToolTarget {
    return this.fixedTarget ?? this.request.target;
  }
}

export class CallApprovals implements CallGate {
  private readonly held = new Map<string, Held>();
  private readonly decided: CallApprovalView[] = [];
  /** session → grant keys of `allow for this session` decisions. */
  private readonly grants = new Map<string, Map<string, SessionGrantView>>();
  private readonly now: () => number;
  private readonly unsubscribe: () => void;
  private targetTimer: NodeJS.Timeout | undefined;
  private heldBytes = 0;

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
    if (judged.kind === 'final') return judged.verdict;
    const bytes = Buffer.byteLength(canonicalJson(request.args), 'utf8');
    return this.overCapacity(request, judged.evaluation, judged.version, bytes) ?? this.hold(request, judged.evaluation, judged.rule, judged.version, bytes);
  }

  /** The complete arguments of one held call (its view carries a bounded preview when they are large). */
  heldArguments(askId: string): { askId: string; arguments: Record<string, unknown>; argumentBytes: number } {
    const entry = this.held.get(askId);
    if (!entry) throw new JunctionError('ApprovalNotFound', `No held call '${askId}'; a decided call keeps only its preview.`, { details: { askId } });
    return { askId, arguments: entry.args, argumentBytes: entry.view.argumentBytes };
  }

  /**
   * Held calls keep their whole arguments in memory until decided, and agent sessions are free, so
   * their number and total size are capped: past either the call is refused at once, not held.
   */
  private overCapacity(request: GateRequest, evaluation: Evaluation, version: number, bytes: number): GateVerdict | undefined {
    const maxHeld = this.options.maxHeld ?? DEFAULT_MAX_HELD;
    const maxBytes = this.options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES;
    let message: string | undefined;
    if (this.held.size >= maxHeld) {
      message = `${this.held.size} calls already wait for the operator, the most approval-max-held=${maxHeld} allows`;
    } else if (this.heldBytes + bytes > maxBytes) {
      const mb = (n: number) => (n / MIB).toFixed(1);
      message = `held calls' arguments would total ${mb(this.heldBytes + bytes)} MiB (this call's ${mb(bytes)} MiB), over approval-max-held-mb=${maxBytes / MIB}`;
    }
    if (message === undefined) return undefined;
    return {
      allowed: false,
      decision: { action: 'ask', ruleIndex: evaluation.ruleIndex, reason: evaluation.reason, policyVersion: version, decidedBy: 'policy', decision: 'deny' },
      error: {
        code: 'Overloaded',
        message: `'${request.tool}' needs the operator's approval, but ${message}; the call was not run. Retry once held calls are decided, or raise the setting.`,
        next: next('retryLater', request.tool),
        details: { heldCalls: this.held.size, heldBytes: this.heldBytes, argumentBytes: bytes, maxHeld, maxHeldBytes: maxBytes },
      },
    };
  }

  /**
   * After a policy change or a session grant every held call is judged again: one the new policy allows
   * or denies is released with that verdict; one still asked is re-bound to the rule that now holds it.
   * The digest covers that rule's content, not its index or the policy version, so renumbering leaves a
   * decision on the same call under the same rule valid, while a call now held by another rule gets a
   * new digest and a decision taken on the outdated view is refused rather than misapplied.
   */
  private rejudgeHeld(): void {
    for (const entry of [...this.held.values()]) if (!entry.deciding) this.rejudge(entry, false);
  }

  private rejudge(entry: Held, changed: boolean): void {
    const judged = this.judge(entry.request, entry.args, entry.bound);
    if (judged.kind === 'final') {
      this.finish(entry, judged.verdict.allowed ? 'allowed' : 'denied', judged.verdict.decision.decision, undefined, judged.verdict);
      return;
    }
    if (!changed && judged.version === entry.view.policyVersion) return;
    entry.rule = judged.rule;
    entry.view = {
      ...entry.view,
      policyVersion: judged.version,
      ruleIndex: judged.evaluation.ruleIndex!,
      reason: judged.evaluation.reason,
      digest: digestOf(entry.request, entry.args, entry.bound, judged.rule),
    };
    this.options.events.requested(entry.view);
  }

  /** A held call whose target changed is asked again, bound to the new target, with the change on its view. */
  private rebind(entry: Held, now: ToolTarget): void {
    const from = distinctLabel(entry.bound, now);
    const to = distinctLabel(now, entry.bound);
    entry.bound = now;
    entry.view = { ...entry.view, target: to, targetChange: { from, to, at: this.now() } };
    this.rejudge(entry, true);
  }

  /** Re-routes every held call that can move; run while calls are held, so the card shows a change before the operator decides. */
  private checkTargets(): void {
    for (const entry of [...this.held.values()]) {
      if (entry.deciding || !entry.request.retarget) continue;
      const now = entry.request.retarget();
      if (targetKey(now) !== targetKey(entry.bound)) this.rebind(entry, now);
    }
  }

  /**
   * An allowing decision runs the call where the operator saw it going. A changed target re-asks (the
   * call keeps waiting, its view names the change) rather than refusing: the agent loses nothing, and
   * the operator decides on where it would really run. A bridged call with no plugin to serve it cannot
   * be bound to one, so it cannot be allowed until one serves it.
   */
  private assertTarget(entry: Held): void {
    const now = entry.request.retarget?.() ?? entry.bound;
    if (targetKey(now) !== targetKey(entry.bound)) {
      const from = entry.view.target;
      this.rebind(entry, now);
      if (!this.held.has(entry.view.askId)) return;
      throw new JunctionError('Conflict', `The call's target changed from ${from} to ${entry.view.target} while it waited; it is asked again with the new target, decide again.`, {
        next: next('refreshSnapshot'),
        details: { askId: entry.view.askId, targetChange: entry.view.targetChange },
      });
    }
    if (now.source === 'bridge' && now.connection === undefined && now.plugin === undefined) {
      throw new JunctionError('Conflict', `No plugin would serve '${entry.view.tool}' now (${entry.view.target}), so an approval could not be bound to where it runs; decide once one serves it, or deny.`, {
        next: next('retryLater'),
        details: { askId: entry.view.askId },
      });
    }
  }

  private judge(request: GateRequest, args: Record<string, unknown>, target?: ToolTarget): { kind: 'final'; verdict: GateVerdict } | { kind: 'ask'; evaluation: Evaluation; rule: PolicyRule; version: number } {
    const { compiled, version } = this.options.store.current();
    const evaluation = evaluate(compiled, new RequestFacts(request, args, target));
    const base = { action: evaluation.action, ruleIndex: evaluation.ruleIndex, reason: evaluation.reason, policyVersion: version };
    if (evaluation.action === 'allow') return { kind: 'final', verdict: { allowed: true, args, decision: withFields(base, { decidedBy: 'policy', decision: 'allow-once' } as const) } };
    if (evaluation.action === 'deny') {
      return {
        kind: 'final',
        verdict: {
          allowed: false,
          decision: withFields(base, { decidedBy: 'policy', decision: 'deny' } as const),
          error: { code: 'ApprovalDenied', message: `The approval policy denies '${request.tool}': ${evaluation.reason}.`, details: { decidedBy: 'policy', ruleIndex: evaluation.ruleIndex } },
        },
      };
    }
    const rule = compiled.document.rules[evaluation.ruleIndex!]!;
    if (this.grants.get(request.session)?.has(grantKey(request.tool, rule, target ?? request.target)) === true) {
      return { kind: 'final', verdict: { allowed: true, args, decision: withFields(base, { decidedBy: 'operator', decision: 'allow-session' } as const) } };
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
    if (request.decision !== 'deny') this.assertTarget(entry);
    if (!this.held.has(request.askId)) return entry.view;
    switch (request.decision) {
      case 'allow-once':
        return this.finish(entry, 'allowed', 'allow-once');
      case 'allow-session': {
        const grants = this.grants.get(entry.request.session) ?? new Map<string, SessionGrantView>();
        grants.set(grantKey(entry.view.tool, entry.rule, entry.bound), {
          grantId: randomUUID(),
          session: entry.request.session,
          agent: entry.view.agent,
          tool: entry.view.tool,
          rule: entry.rule,
          target: entry.view.target,
          grantedAt: this.now(),
          callId: entry.view.callId,
        });
        this.grants.set(entry.request.session, grants);
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

  /** Every session grant in force, oldest first. */
  sessionGrants(): SessionGrantView[] {
    return [...this.grants.values()].flatMap((grants) => [...grants.values()]).sort((a, b) => a.grantedAt - b.grantedAt);
  }

  /** Revokes one grant: the session's later calls are asked again (calls already released keep running). */
  revokeSessionGrant(grantId: string): SessionGrantView[] {
    for (const [session, grants] of this.grants) {
      for (const [key, grant] of grants) {
        if (grant.grantId !== grantId) continue;
        grants.delete(key);
        if (grants.size === 0) this.grants.delete(session);
        return this.sessionGrants();
      }
    }
    throw new JunctionError('ApprovalNotFound', `No session grant '${grantId}' (its session may have ended).`, { details: { grantId } });
  }

  /** Decided held calls in the order they were decided, the last `limit`. */
  decisionLog(limit: number): CallApprovalView[] {
    return limit === 0 ? [] : this.decided.slice(-limit);
  }

  /** The rule "always allow" would write for a held call, and what the policy would report after it. */
  previewAlwaysAllow(askId: string): AlwaysAllowPreview {
    const entry = this.held.get(askId);
    if (!entry) throw new JunctionError('ApprovalNotFound', `No held call '${askId}'.`, { details: { askId } });
    const { rule, rules } = this.options.store.alwaysAllowRule(entry.view, entry.rule, entry.view.ruleIndex);
    return { askId, rule, ruleIndex: entry.view.ruleIndex, findings: analysePolicy(rules) };
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
      await this.options.store.alwaysAllow(entry.view, entry.rule, entry.view.ruleIndex, entry.view.policyVersion);
    } catch (error) {
      entry.deciding = false;
      if (entry.timedOutWhileDeciding) this.finish(entry, 'timedOut');
      throw error;
    }
    entry.deciding = false;
    // The rule is saved even when the agent gave up meanwhile; then the view says so.
    return this.held.has(entry.view.askId) ? this.finish(entry, 'allowed', 'always') : (this.decided.find((v) => v.askId === entry.view.askId) ?? entry.view);
  }

  private hold(request: GateRequest, evaluation: Evaluation, rule: PolicyRule, version: number, argumentBytes: number): Promise<GateVerdict> {
    const args = structuredClone(request.args);
    const bound = request.target;
    const requestedAt = this.now();
    const timeoutMs = this.options.timeoutMs;
    const view: CallApprovalView = {
      askId: randomUUID(),
      callId: request.callId,
      digest: digestOf(request, args, bound, rule),
      policyVersion: version,
      tool: request.tool,
      ...(request.descriptor.description !== undefined ? { description: request.descriptor.description } : {}),
      ...(request.descriptor.annotations ? { annotations: { ...request.descriptor.annotations } } : {}),
      agent: request.agent,
      agentName: request.agentName,
      transport: request.transport,
      target: targetLabel(bound),
      ...this.boundedArguments(args, argumentBytes, this.options.heldArgumentBytes ?? HELD_ARGUMENT_BYTES),
      argumentBytes,
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
        bound,
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
      this.heldBytes += argumentBytes;
      if (request.retarget && !this.targetTimer) {
        this.targetTimer = setInterval(() => this.checkTargets(), this.options.targetCheckMs ?? 1000);
        this.targetTimer.unref();
      }
      request.signal.addEventListener('abort', onAbort, { once: true });
      this.options.events.requested(view);
      tell();
      if (request.signal.aborted) onAbort();
    });
  }

  /** `verdict` overrides the one derived from the state (a policy change releasing the call). */
  private finish(entry: Held, state: Exclude<CallApprovalView['state'], 'pending'>, decision?: CallApprovalView['decision'], operatorReason?: string, verdict?: GateVerdict): CallApprovalView {
    if (!this.held.delete(entry.view.askId)) return entry.view;
    this.heldBytes -= entry.view.argumentBytes;
    if (this.held.size === 0) {
      clearInterval(this.targetTimer);
      this.targetTimer = undefined;
    }
    const decidedAt = this.now();
    entry.view = {
      ...entry.view,
      state,
      decidedAt,
      ...this.boundedArguments(entry.args, entry.view.argumentBytes, this.options.decidedArgumentBytes ?? DECIDED_ARGUMENT_BYTES),
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

  /** Views are bounded like the console's call rows: large arguments travel as a JSON text preview, fetched whole by `heldArguments`. */
  private boundedArguments(args: Record<string, unknown>, bytes: number, limit: number): Pick<CallApprovalView, 'arguments' | 'argumentsTruncated'> {
    if (bytes <= limit) return { arguments: args };
    return { arguments: JSON.parse(cappedJson(args, limit).json) as string, argumentsTruncated: true };
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

function digestOf(request: GateRequest, args: Record<string, unknown>, target: ToolTarget, rule: PolicyRule): string {
  return decisionDigest({ session: request.session, tool: request.tool, args, target, rule });
}

