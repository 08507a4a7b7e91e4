/** The approval policy room: rules for every tool call (pure engine), the live policy, the gate that holds `ask` calls, and the policy file adapter. */
export { analysePolicy, ruleCovers } from './analysis.js';
export { CallApprovals, targetLabel, type CallApprovalEvents, type CallApprovalsOptions } from './call-approvals.js';
export { canonicalJson, decisionDigest } from './canonical.js';
export { compilePolicy, evaluate, globToRegExp, type CallFacts, type CompiledPolicy, type Evaluation } from './engine.js';
export { MAX_EQUALS_DEPTH, MAX_REGEX_INPUT, MAX_REGEX_LENGTH, pointerCandidates } from './matchers.js';
export { PolicyFile } from './policy-file.js';
export { contentVisibilityOf, visibilityJudge, visibilityOf, type VisibilityVerdict } from './visibility.js';
export { openPolicy, refusedEditNotice, type OpenPolicy } from './open-policy.js';
export { PolicyStore, type OutsideEdit, type PolicyListener, type PolicyPersistence, type PolicyStoreOptions } from './policy-store.js';
export { formatPolicy, parsePolicyDocument, parsePolicyText } from './rules.js';
export { mountPolicy, type MountedPolicy, type PolicyMountContext } from './mount.js';
