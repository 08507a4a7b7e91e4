export { constantTimeEqual } from './constant-time.js';
export { presentedToken, type ClientKind } from './credentials.js';
export type { AuthorizationClientType, AuthorizationDecision, AuthorizationGate, AuthorizationRequest } from './authorization.js';
export {
  createAuthenticator,
  type AuthenticationContext,
  type AuthenticationResult,
  type Authenticator,
  type AuthenticatorOptions,
  type Principal,
} from './authenticator.js';
export { loadOrCreateToken, TOKEN_DIRECTORY, TOKEN_FILE } from './token-file.js';
