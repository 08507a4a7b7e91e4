/**
 * The live approval policy: the validated document, its compiled form and a version that bumps on every
 * change. Changes are serialised and persisted (atomically, by the injected adapter) before they take
 * effect, so a failed save changes nothing and two consoles saving at once cannot interleave.
 */
import type { PolicyChangeView, PolicyDocument, PolicyRule, PolicyView } from '../contracts/index.js';
import { JunctionError, next } from '../contracts/index.js';
import { canonicalJson } from './canonical.js';
import { compilePolicy, escapeGlob, type CompiledPolicy } from './engine.js';
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

export class PolicyStore {
  private compiled: CompiledPolicy;
  private version = 1;
  private updatedAt: number;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly now: () => number;
  private readonly listeners = new Set<PolicyListener>();

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

  current(): { compiled: CompiledPolicy; version: number } {
    return { compiled: this.compiled, version: this.version };
  }

  view(): PolicyView {
    return { path: this.options.path, version: this.version, document: this.compiled.document, updatedAt: this.updatedAt };
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
   * "Always allow": inserts an allow rule for exactly `tool` right before the ask rule that held the call,
   * keeping that rule's other matchers, so earlier deny rules still win. Refused when the policy changed
   * since the call was asked, because the rule index may then point elsewhere.
   */
  alwaysAllow(tool: string, askedRule: PolicyRule, ruleIndex: number, askedVersion: number): Promise<number> {
    return this.serialised(async () => {
      this.assertVersion(askedVersion);
      const current = this.compiled.document.rules[ruleIndex];
      if (!current || canonicalJson(current) !== canonicalJson(askedRule)) {
        throw new JunctionError('Conflict', `Rule ${ruleIndex} is no longer the rule that held this call.`);
      }
      const { reason: _reason, ...matchers } = askedRule;
      const rule: PolicyRule = { ...matchers, tool: escapeGlob(tool), action: 'allow', reason: `always allowed by the operator on ${new Date(this.now()).toISOString()}` };
      const rules = [...this.compiled.document.rules.slice(0, ruleIndex), rule, ...this.compiled.document.rules.slice(ruleIndex)];
      await this.commit({ rules }, { kind: 'always-allow', ruleIndex });
      return this.version;
    });
  }

  private assertVersion(expected: number): void {
    if (expected !== this.version) {
      throw new JunctionError('Conflict', `The policy changed (version ${expected} → ${this.version}) since it was read; reload it and apply the change again.`, {
        next: next('refreshSnapshot'),
        details: { expectedVersion: expected, version: this.version },
      });
    }
  }

  private async commit(document: PolicyDocument, change: Pick<PolicyChangeView, 'kind' | 'ruleIndex'>): Promise<void> {
    if (!this.options.path || !this.options.persistence) {
      throw new JunctionError('PolicyInvalid', 'No approval-policy file is configured, so the policy cannot be changed; start Junction with approval-policy=FILE.');
    }
    const compiled = compilePolicy(document);
    await this.options.persistence.save(formatPolicy(document));
    const previousVersion = this.version;
    this.compiled = compiled;
    this.version += 1;
    this.updatedAt = this.now();
    const view = this.view();
    const done: PolicyChangeView = { ...change, by: 'operator', previousVersion, version: this.version, at: this.updatedAt };
    for (const listener of [...this.listeners]) listener(view, done);
  }

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
