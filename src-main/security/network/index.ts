export { isLoopbackAddress, isLoopbackHostName } from './loopback.js';
export { assertBindAllowed, type AuthMode, type BindPolicyInput } from './bind.js';
export { checkOrigin, type OriginCheck, type OriginPolicy } from './origin.js';
