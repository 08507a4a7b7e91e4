export * from './json.js';
export * from './typed-emitter.js';
export * from './log.js';
export * from './project-pin.js';
export * from './suggest.js';
export * from './abort-watch.js';
export * from './deadlines.js';
export * from './bounded-copy.js';
