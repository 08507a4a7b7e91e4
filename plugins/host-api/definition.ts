/**
 * The plugin definition a module exports as its default export. Requests are zod object schemas: the host
 * publishes their JSON Schema (required, optional and nullable kept distinct, defaults published) and
 * validates arguments against them before it acquires any execution context.
 */
import type { z } from 'zod';
import type { MutationContext, QueryContext } from './context.js';
import type { MutationResult } from './mutation.js';
import type { PluginApiVersion } from './version.js';

/** Handlers are shared by concurrent invocations: keep them stateless or make their state thread-safe. */
export interface QueryHandler<Request, Response> {
  handle(request: Request, context: QueryContext): Response | Promise<Response>;
}

export interface MutationHandler<Request> {
  handle(request: Request, context: MutationContext): MutationResult | Promise<MutationResult>;
}

export interface QueryToolDefinition<Req extends z.ZodObject = z.ZodObject, Res extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly description: string;
  readonly request: Req;
  /** Must be an object schema; scalar, array and dictionary responses are rejected at load time. */
  readonly response: Res;
  readonly handler: QueryHandler<z.output<Req>, z.input<Res>>;
}

export interface MutationToolDefinition<Req extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly description: string;
  readonly request: Req;
  readonly handler: MutationHandler<z.output<Req>>;
}

export interface PluginDefinition {
  /** Stable identity across releases, lower-case words joined by '.' or '-', e.g. `acme.todo-comments`. */
  readonly id: string;
  readonly apiVersion: PluginApiVersion;
  /** The plugin's own semantic version, e.g. `1.2.0`. */
  readonly version: string;
  readonly queries?: readonly QueryToolDefinition[];
  readonly mutations?: readonly MutationToolDefinition[];
}

/** Identity helpers that only exist so TypeScript infers handler types from the schemas. */
export function defineQueryTool<Req extends z.ZodObject, Res extends z.ZodObject>(tool: QueryToolDefinition<Req, Res>): QueryToolDefinition {
  return tool as unknown as QueryToolDefinition;
}

export function defineMutationTool<Req extends z.ZodObject>(tool: MutationToolDefinition<Req>): MutationToolDefinition {
  return tool as unknown as MutationToolDefinition;
}

export function definePlugin(plugin: PluginDefinition): PluginDefinition {
  return plugin;
}
