/** The approval policy room: rules for every tool call (pure engine), the live policy, the gate that holds `ask` calls, and the policy file adapter. */
export { CallApprovals, targetLabel, type CallApprovalEvents, type CallApprovalsOptions } from './call-approvals.js';
export { canonicalJson, decisionDigest } from './canonical.js';
export { compilePolicy, evaluate, globToRegExp, resolvePointer, type CallFacts, type CompiledPolicy, type Evaluation } from './engine.js';
export { loadPolicyFile, policyFilePersistence } from './policy-file.js';
export { PolicyStore, type PolicyListener, type PolicyPersistence, type PolicyStoreOptions } from './policy-store.js';
export { MAX_REGEX_INPUT, regexSafetyProblem } from './regex-safety.js';
export { formatPolicy, parsePolicyDocument, parsePolicyText } from './rules.js';
export { mountPolicy, type MountedPolicy, type PolicyMountContext } from './mount.js';
