export * from './errors.js';
export * from './json.js';
export * from './tool-source.js';
export * from './typed-emitter.js';
export * from './log.js';
export * from './call-gate.js';
export * from './project-pin.js';
export * from './suggest.js';
