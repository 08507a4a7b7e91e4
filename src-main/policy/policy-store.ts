/**
 * The live approval policy: the validated document, its compiled form and a version that bumps on every
 * change. Changes are serialised and persisted (atomically, by the injected adapter) before they take
 * effect, so a failed save changes nothing and two consoles saving at once cannot interleave.
 */
import type { PolicyChangeView, PolicyDocument, PolicyFinding, PolicyRule, PolicyView } from '../contracts/index.js';
import { analysePolicy } from './analysis.js';
import { exactGlob, isVisibilitySwitch, JunctionError, next, visibilitySwitchRule } from '../contracts/index.js';
import { canonicalJson } from './canonical.js';
import { compilePolicy, type CompiledPolicy } from './engine.js';
import { formatPolicy, parsePolicyText } from './rules.js';

export interface PolicyPersistence {
  save(text: string): Promise<void>;
}

export interface PolicyStoreOptions {
  /** The policy file; null when no policy is configured (nothing can be saved then). */
  path: string | null;
  document: PolicyDocument;
  persistence?: PolicyPersistence;
  now?: () => number;
}

export type PolicyListener = (policy: PolicyView, change: PolicyChangeView) => void;

/** The held call an "always allow" is for. */
export interface AlwaysAllowed {
  tool: string;
  agentName: string;
  callId: string;
}

/** An edit of the policy file made outside Junction, as read (or the read failure). */
export type OutsideEdit = { text: string } | { error: JunctionError };

export class PolicyStore {
  private compiled: CompiledPolicy;
  private version = 1;
  private updatedAt: number;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly now: () => number;
  private readonly listeners = new Set<PolicyListener>();
  private readonly rejectedListeners = new Set<(problem: JunctionError) => void>();
  /** Why the file's current content (edited outside Junction) was not loaded; saves wait until it is fixed. */
  private fileProblem: string | undefined;
  /** The current document's findings, computed once per version. */
  private findings: PolicyFinding[] | undefined;
  /** Policy version → the rule an always-allow wrote then, for undo. */
  private readonly written = new Map<number, PolicyRule>();

  constructor(private readonly options: PolicyStoreOptions) {
    this.now = options.now ?? Date.now;
    this.compiled = compilePolicy(options.document);
    this.updatedAt = this.now();
  }

  /** Told after every change took effect (the file is written by then). */
  onChanged(listener: PolicyListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Told when an outside edit of the file could not be loaded (the old policy stays in force). */
  onRejected(listener: (problem: JunctionError) => void): () => void {
    this.rejectedListeners.add(listener);
    return () => this.rejectedListeners.delete(listener);
  }

  current(): { compiled: CompiledPolicy; version: number } {
    return { compiled: this.compiled, version: this.version };
  }

  view(): PolicyView {
    return {
      path: this.options.path,
      version: this.version,
      document: this.compiled.document,
      updatedAt: this.updatedAt,
      ...(this.fileProblem !== undefined ? { fileProblem: this.fileProblem } : {}),
      findings: (this.findings ??= analysePolicy(this.compiled.document.rules)),
    };
  }

  /**
   * The rule "always allow" writes for a call of `tool` by `agentName` held by `askedRule` at `ruleIndex`:
   * as narrow as the decision (that tool, that agent, the ask rule's other matchers, so earlier deny rules
   * still win and other agents are still asked), inserted just before the ask rule.
   */
  alwaysAllowRule(held: AlwaysAllowed, askedRule: PolicyRule, ruleIndex: number): { rule: PolicyRule; rules: PolicyRule[] } {
    const { reason: _reason, ...matchers } = askedRule;
    // The reason names the decision's call rather than a time, so the previewed rule is the rule written.
    const rule: PolicyRule = { ...matchers, tool: exactGlob(held.tool), agent: exactGlob(held.agentName), action: 'allow', reason: `always allowed by the operator (held call ${held.callId})` };
    const rules = this.compiled.document.rules;
    return { rule, rules: [...rules.slice(0, ruleIndex), rule, ...rules.slice(ruleIndex)] };
  }

  /** Replaces the whole policy with `text` when `baseVersion` is still current (the console's editor). */
  replace(text: string, baseVersion: number): Promise<PolicyView> {
    return this.serialised(async () => {
      const document = parsePolicyText(text, 'policy');
      this.assertVersion(baseVersion);
      await this.commit(document, { kind: 'edited' });
      return this.view();
    });
  }

  /**
   * "Always allow": writes `alwaysAllowRule`. Refused when the policy changed since the call was asked,
   * because the rule index may then point elsewhere.
   */
  alwaysAllow(held: AlwaysAllowed, askedRule: PolicyRule, ruleIndex: number, askedVersion: number): Promise<number> {
    return this.serialised(async () => {
      this.assertVersion(askedVersion);
      const current = this.compiled.document.rules[ruleIndex];
      if (!current || canonicalJson(current) !== canonicalJson(askedRule)) {
        throw new JunctionError('Conflict', `Rule ${ruleIndex} is no longer the rule that held this call.`);
      }
      const { rule, rules } = this.alwaysAllowRule(held, askedRule, ruleIndex);
      await this.commit({ rules }, { kind: 'always-allow', ruleIndex, rule });
      this.written.set(this.version, rule);
      return this.version;
    });
  }

  /**
   * The operator's "agents see this" switch for `tool`. Off writes `{tool, action: 'hide'}` as the first
   * rule, so it decides that tool's listings before any show rule; on takes every such switch rule for
   * the tool out (a hide written by hand with other matchers stays). Switching to the state in force
   * changes nothing. Refused with Conflict when the policy changed since `baseVersion`.
   */
  setToolVisible(tool: string, visible: boolean, baseVersion: number): Promise<PolicyView> {
    return this.serialised(async () => {
      this.assertVersion(baseVersion);
      const rules = this.compiled.document.rules;
      const isSwitch = (r: PolicyRule) => isVisibilitySwitch(r, tool);
      const index = rules.findIndex(isSwitch);
      if (visible ? index === -1 : index !== -1) return this.view();
      if (visible) {
        await this.commit({ rules: rules.filter((r) => !isSwitch(r)) }, { kind: 'visibility', ruleIndex: index, rule: rules[index]! });
      } else {
        const rule = visibilitySwitchRule(tool);
        await this.commit({ rules: [rule, ...rules] }, { kind: 'visibility', ruleIndex: 0, rule });
      }
      return this.view();
    });
  }

  /** Takes out the rule the always-allow at `version` wrote, wherever edits since have moved it. */
  undoAlwaysAllow(version: number): Promise<PolicyView> {
    return this.serialised(async () => {
      this.assertFileLoaded();
      const rule = this.written.get(version);
      if (!rule) throw new JunctionError('Conflict', `Policy version ${version} was not written by an "always allow" of this Junction run, so there is nothing to undo.`, { details: { version } });
      const key = canonicalJson(rule);
      const index = this.compiled.document.rules.findIndex((r) => canonicalJson(r) === key);
      if (index === -1) {
        this.written.delete(version);
        throw new JunctionError('Conflict', `The rule "always allow" wrote at version ${version} is no longer in the policy.`, { details: { version } });
      }
      const rules = this.compiled.document.rules.filter((_, i) => i !== index);
      await this.commit({ rules }, { kind: 'undone', ruleIndex: index, rule });
      this.written.delete(version);
      return this.view();
    });
  }

  /**
   * The policy file changed outside Junction: a valid edit takes effect (a new version, audited like any
   * change); an invalid one keeps the policy in force, is reported, and blocks saves until it is fixed,
   * so Junction never overwrites what the operator is editing by hand.
   */
  outsideEdit(edit: OutsideEdit): Promise<void> {
    return this.serialised(async () => {
      let document: PolicyDocument;
      try {
        if ('error' in edit) throw edit.error;
        document = parsePolicyText(edit.text, `approval-policy ${this.options.path ?? ''}`);
      } catch (error) {
        if (!(error instanceof JunctionError)) throw error;
        this.fileProblem = error.message;
        for (const listener of [...this.rejectedListeners]) listener(error);
        return;
      }
      const hadProblem = this.fileProblem !== undefined;
      this.fileProblem = undefined;
      if (!hadProblem && canonicalJson(document) === canonicalJson(this.compiled.document)) return;
      this.apply(compilePolicy(document), { kind: 'reloaded' }, 'file');
    });
  }

  private assertFileLoaded(): void {
    if (this.fileProblem === undefined) return;
    throw new JunctionError('Conflict', `The policy file was edited outside Junction and that edit could not be loaded (${this.fileProblem}); fix the file first, so that this change does not overwrite it.`, {
      next: next('refreshSnapshot'),
      details: { fileProblem: this.fileProblem },
    });
  }

  private assertVersion(expected: number): void {
    this.assertFileLoaded();
    if (expected !== this.version) {
      throw new JunctionError('Conflict', `The policy changed (version ${expected} → ${this.version}) since it was read; reload it and apply the change again.`, {
        next: next('refreshSnapshot'),
        details: { expectedVersion: expected, version: this.version },
      });
    }
  }

  private async commit(document: PolicyDocument, change: Pick<PolicyChangeView, 'kind' | 'ruleIndex' | 'rule'>): Promise<void> {
    if (!this.options.path || !this.options.persistence) {
      throw new JunctionError('PolicyInvalid', 'No approval-policy file is configured, so the policy cannot be changed; start Junction with approval-policy=FILE.');
    }
    const compiled = compilePolicy(document);
    await this.options.persistence.save(formatPolicy(document));
    this.apply(compiled, change, 'operator');
  }

  private apply(compiled: CompiledPolicy, change: Pick<PolicyChangeView, 'kind' | 'ruleIndex' | 'rule'>, by: PolicyChangeView['by']): void {
    const previousVersion = this.version;
    this.compiled = compiled;
    this.findings = undefined;
    this.version += 1;
    this.updatedAt = this.now();
    const view = this.view();
    const done: PolicyChangeView = { ...change, by, previousVersion, version: this.version, at: this.updatedAt };
    for (const listener of [...this.listeners]) listener(view, done);
  }

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
