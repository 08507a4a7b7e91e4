/** What each host mode allows. The catalogue and the commit rules read this table, nothing else. */
export const HOST_MODES = ['inspection-only', 'transactional', 'approval-required', 'autonomous-trusted', 'compiler-validation'] as const;
export type HostMode = (typeof HOST_MODES)[number];

export interface ModePolicy {
  mode: HostMode;
  /** Mutation tools are published and callable. */
  mutations: boolean;
  /** What a commit needs: nothing, a preview of the exact revision, or an operator's receipt for it. */
  commitRequires: 'nothing' | 'preview' | 'receipt';
  /** Staging fails with ValidationFailed when the candidate adds compiler errors. */
  compilerValidation: boolean;
}

const POLICIES: Record<HostMode, ModePolicy> = {
  'inspection-only': { mode: 'inspection-only', mutations: false, commitRequires: 'nothing', compilerValidation: false },
  transactional: { mode: 'transactional', mutations: true, commitRequires: 'preview', compilerValidation: false },
  'approval-required': { mode: 'approval-required', mutations: true, commitRequires: 'receipt', compilerValidation: false },
  'autonomous-trusted': { mode: 'autonomous-trusted', mutations: true, commitRequires: 'nothing', compilerValidation: false },
  'compiler-validation': { mode: 'compiler-validation', mutations: true, commitRequires: 'preview', compilerValidation: true },
};

export function modePolicy(mode: HostMode): ModePolicy {
  return POLICIES[mode];
}
