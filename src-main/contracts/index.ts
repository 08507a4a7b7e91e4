/**
 * The contracts room's door: data shapes that several rooms share (console views, events and commands,
 * tool outcomes, structured errors, the call gate). It depends on no other room, so any room may import it.
 */
export * from './errors.js';
export * from './tool-source.js';
export * from './call-gate.js';
export * from './visibility.js';
export * from './error-table.js';
export type * from './console.js';
export * from './console-commands.js';
export type * from './resources.js';
export * from './call-id-search.js';
