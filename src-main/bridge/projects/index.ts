/**
 * Many projects at once: plugins grouped by project (each with its own editor/runtime slots), the
 * resolution of an agent session to one project (pin → selection → only → most recently active), and
 * the server-native selection tools.
 *
 *   const projects = new ProjectRegistry(serverVersion, 'single' | 'multi', now);
 *   projects.resolve({ sessionId, pin })   -> resolved project (+ advisory note) | noMatchPinned | ambiguousPin | selectionGone | empty
 *   resolutionError(unresolved)            -> the structured error (ProjectNotConnected, ProjectPinAmbiguous)
 *   new ProjectSelectionTools(projects)    -> ToolSource: list_engine_instances, select_engine_instance
 */
export { ProjectRegistry, type InstanceView, type PinnedProject, type Project, type ProjectResolution, type ProjectRoutingControl } from './project-registry.js';
export { ProjectSelectionTools, LIST_INSTANCES, SELECT_INSTANCE } from './selection-tools.js';
export { resolutionError, type Unresolved } from './resolution-error.js';
export { projectIdentityOf, projectKeyOf, projectLabel, pinFor, pinsFor, type ProjectIdentity, type IdentityParse } from './identity.js';
