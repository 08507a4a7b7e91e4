export { buildManifest, withPhase, tempPathFor, type PreparedChange } from './build.js';
export { planRecovery, directionFor, type RecoveryPlan, type FileStep, type FileConflict, type Direction, type FileAction } from './plan.js';
