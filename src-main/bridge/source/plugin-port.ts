/** How the bridge's source reaches a plugin connection; the hub adapter implements it (tools go through the call guard's ToolInvoker). */
import type { LogLevel, RequestCallTool, RequestCompletion, ResponseCompletion, ResponseData, ResponseGetPrompt, ResponseListTool, ResponseResourceContent } from '../../../plugins/sdk/wire/index.js';
import type { GuardSettings, PluginReply, ToolInvoker } from '../calls/index.js';
import type { AgentRequestContext, ToolVisibility } from '../../contracts/index.js';
import type { ProjectRegistry } from '../projects/index.js';

/**
 * A prompt get or resource read: its whole-call deadline (plugin-timeout, standing still while the
 * plugin waits for the agent, as a tool call's does) and the agent its plugin may ask meanwhile.
 */
export interface ContentCallOptions {
  timeoutMs: number;
  asking?: AgentRequestContext;
}

export interface PluginPort extends ToolInvoker {
  getPrompt(connectionId: string, name: string, args: Record<string, string>, options: ContentCallOptions): Promise<ResponseData<ResponseGetPrompt>>;
  readResource(connectionId: string, uri: string, options: ContentCallOptions): Promise<ResponseData<ResponseResourceContent[]>>;
  complete(connectionId: string, request: Omit<RequestCompletion, 'requestId'>, timeoutMs: number): Promise<ResponseData<ResponseCompletion>>;
  setSubscription(connectionId: string, uri: string, subscribed: boolean, timeoutMs: number): Promise<void>;
  /** Calls in flight and their pending agent requests. */
  activeCounts(): { calls: number; nested: number };
  listSystemTools(connectionId: string, timeoutMs: number): Promise<ResponseListTool[]>;
  invokeSystemTool(connectionId: string, request: RequestCallTool, options: { timeoutMs: number; signal: AbortSignal }): Promise<PluginReply>;
}

/** What every part of the source works with: the projects, the way to the plugins, and the call settings (the deadline changes at run time). */
export interface SourceContext {
  readonly projects: ProjectRegistry;
  readonly port: PluginPort;
  readonly settings: GuardSettings;
  /** Which plugins' prompts and resources each agent sees (the policy's visibility rules); absent: all. */
  readonly visibility?: ToolVisibility;
}

export interface PluginLogEntry {
  connectionId: string;
  /** `bridge`: the bridge's own finding about the plugin (a malformed payload, a failed list); `plugin`: the plugin's NotifyLog. */
  origin: 'bridge' | 'plugin';
  requestId?: string;
  level: LogLevel;
  message: string;
}

/** A plugin log line not tied to a running call, for every agent session. */
export interface AgentLogEntry {
  level: LogLevel;
  logger?: string;
  data: unknown;
}
