export { createCatalogue, type Catalogue, type CatalogueCollision, type CatalogueEntry } from './catalogue.js';
export type { ContentSource } from './content-source.js';
export { createDispatcher, type Admission, type CallObserver, type DispatchRequest, type Dispatcher, type DispatcherOptions } from './dispatcher.js';
export { ConsoleElicitations, DEFAULT_MAX_PENDING_ELICITATIONS } from './console-elicitations.js';
export { createMcpServerFactory, type McpServerDeps, type McpServerFactory } from './server.js';
export { createMcpHttpHandler, type McpHttpHandler, type McpHttpOptions } from './http-transport.js';
export { createDirectToolApi, type DirectApiOptions } from './direct-http.js';
export { createSystemToolApi, type SystemToolApiOptions, type SystemToolProvider } from './system-tools-http.js';
export { proxyStdioToHttp, refuseStdio, serveStdio, type StdioProxy, type StdioStreams } from './stdio.js';
