/**
 * The hub's method names, by the direction they travel. A plugin invokes `PluginToServer` methods on
 * the server's hub; the server invokes `ServerToPlugin` methods on the plugin's connection.
 */

/** Methods the plugin invokes on the server. */
export const PluginToServer = {
  PerformVersionHandshake: 'PerformVersionHandshake',
  GetMcpClientData: 'GetMcpClientData',
  GetMcpServerData: 'GetMcpServerData',
  NotifyAboutUpdatedTools: 'NotifyAboutUpdatedTools',
  NotifyToolRequestCompleted: 'NotifyToolRequestCompleted',
  NotifyAboutUpdatedPrompts: 'NotifyAboutUpdatedPrompts',
  NotifyAboutUpdatedResources: 'NotifyAboutUpdatedResources',
  /** Junction extension: progress of a running tool call. */
  NotifyToolProgress: 'NotifyToolProgress',
  /** Junction extension: a log line from the plugin, optionally tied to a tool call. */
  NotifyLog: 'NotifyLog',
  /** MCP extension 1: ask the user of the agent that made a running call (`elicitation/create`). */
  RequestElicitation: 'RequestElicitation',
  /** MCP extension 1: ask the model of the agent that made a running call (`sampling/createMessage`). */
  RequestSampling: 'RequestSampling',
  /** MCP extension 1 (`roots` feature): ask the agent that made a running call for its roots (`roots/list`). */
  RequestRoots: 'RequestRoots',
  /** MCP extension 1: the plugin gives up on one of its own pending elicitation, sampling or roots requests. */
  CancelAgentRequest: 'CancelAgentRequest',
  /** MCP extension 1: a resource changed (`notifications/resources/updated` to subscribed agents). */
  NotifyResourceUpdated: 'NotifyResourceUpdated',
  /** MCP extension 1 (`operatorNotices` feature): show the operator a notice naming this plugin. */
  NotifyOperator: 'NotifyOperator',
} as const;
export type PluginToServerMethod = (typeof PluginToServer)[keyof typeof PluginToServer];

/** Methods the server invokes on the plugin; all but ForceDisconnect, the three agent notices and CancelToolRequest expect a client result. */
export const ServerToPlugin = {
  RunCallTool: 'RunCallTool',
  RunListTool: 'RunListTool',
  RunSystemTool: 'RunSystemTool',
  RunListSystemTool: 'RunListSystemTool',
  RunGetPrompt: 'RunGetPrompt',
  RunListPrompts: 'RunListPrompts',
  RunResourceContent: 'RunResourceContent',
  RunListResources: 'RunListResources',
  RunResourceTemplates: 'RunResourceTemplates',
  ForceDisconnect: 'ForceDisconnect',
  OnInitialClientData: 'OnInitialClientData',
  OnMcpClientConnected: 'OnMcpClientConnected',
  OnMcpClientDisconnected: 'OnMcpClientDisconnected',
  /** Junction extension: the bridge gave up on a call (deadline, agent cancelled); no result expected. */
  CancelToolRequest: 'CancelToolRequest',
  /** MCP extension 1 (`completion` feature): argument completion for a prompt or resource template. */
  RunCompletion: 'RunCompletion',
  /** MCP extension 1 (`subscriptions` feature): the first agent subscribed to a resource. */
  RunSubscribeResource: 'RunSubscribeResource',
  /** MCP extension 1 (`subscriptions` feature): the last agent unsubscribed from a resource. */
  RunUnsubscribeResource: 'RunUnsubscribeResource',
} as const;
export type ServerToPluginMethod = (typeof ServerToPlugin)[keyof typeof ServerToPlugin];
