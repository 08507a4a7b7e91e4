/** Why an agent session has no project to go to, as the one structured error every transport answers with. */
import type { StructuredError } from '../../contracts/index.js';
import type { ProjectResolution } from './project-registry.js';
import { LIST_INSTANCES } from './selection-tools.js';

export type Unresolved = Exclude<ProjectResolution, { kind: 'resolved' }>;

export function resolutionError(resolution: Unresolved): StructuredError {
  const again = { kind: 'resolveTargetAgain' as const, tools: [LIST_INSTANCES] };
  switch (resolution.kind) {
    case 'empty':
      return { code: 'ProjectNotConnected', message: resolution.message };
    case 'noMatchPinned':
      return { code: 'ProjectNotConnected', message: resolution.message, next: again, details: { pin: resolution.pin } };
    case 'selectionGone':
      return { code: 'ProjectNotConnected', message: resolution.message, next: again, details: { selectedProject: resolution.projectKey } };
    case 'ambiguousPin':
      return { code: 'ProjectPinAmbiguous', message: resolution.message, next: again, details: { pin: resolution.pin, candidates: resolution.candidates } };
  }
}
