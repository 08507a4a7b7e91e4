export { createHubServer, type AuthorizeResult, type HubServer, type HubServerOptions } from './hub-server.js';
export {
  HubInvocationError,
  HubMethodError,
  type HubConnection,
  type HubInvocationFailure,
  type HubMethodHandler,
  type HubServerEvents,
  type InvokeOptions,
  type MalformedMessage,
  type MessageSize,
  type OversizedMessage,
} from './types.js';
