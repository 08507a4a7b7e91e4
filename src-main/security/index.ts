/** Trust primitives for the HTTP composition: authentication, DNS-rebinding checks, bind policy, limits. */
export { refuse, type Refusal } from './refusal.js';
export * from './auth/index.js';
export * from './network/index.js';
export * from './limits/index.js';
