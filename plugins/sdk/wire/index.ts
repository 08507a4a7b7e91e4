/**
 * The McpPlugin hub wire contract: one module for the TypeScript plugin SDK and Junction's bridge,
 * its door for both (the SDK's own code and the bridge import this file, nothing inside the folder).
 * Method names and DTO shapes follow McpPlugin 8.0 (specs/mcp-plugin-hub-contract.md); behaviour
 * added in 8.14–8.16 (roles, `mcpPluginVersion`, `notExecuted`) follows the seed document.
 *
 *   constants.ts       hub path, versions, default deadline, connect-URL keys
 *   methods.ts         hub method names by direction: PluginToServer, ServerToPlugin
 *   reading.ts         case-insensitive DTO reading (how every schema here reads a .NET payload)
 *   enums.ts           ResponseStatus, ResponseErrorKind, Role
 *   envelope.ts        ResponseData<T>, content blocks, successData / errorData
 *   tools.ts, prompts.ts, resources.ts, handshake.ts   the McpPlugin DTOs
 *   dotnet-writing.ts  toDotNetWire: a payload as McpPlugin.Server writes it
 *   extension.ts       MCP extension 1 (opt-in at the handshake; 8.x clients never see it)
 *
 * Junction extensions beyond McpPlugin that any plugin may use (a .NET server ignores methods a
 * plugin never calls, and a .NET plugin never calls them): `NotifyToolProgress`, `NotifyLog`
 * (plugin → server), `CancelToolRequest` (server → plugin), and the optional `notExecuted` of ResponseCallTool.
 */
export * from './constants.js';
export * from './methods.js';
export { enumIndex } from './reading.js';
export { ERROR_KIND_NAMES, ResponseErrorKind, ResponseStatus, Role, STATUS_NAMES } from './enums.js';
export * from './envelope.js';
export * from './tools.js';
export * from './prompts.js';
export * from './resources.js';
export * from './handshake.js';
export * from './dotnet-writing.js';
export * from './extension.js';
