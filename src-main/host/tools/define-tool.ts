/**
 * Host tools as data: a zod input, a zod output, annotations and a handler. One function turns a
 * list of them into a ToolSource, validating arguments on the way in and results on the way out
 * (admission runs whether or not output schemas are published).
 */
import { z } from 'zod';
import { type JsonSchemaObject } from '../../shared/index.js';
import { JunctionError, errorOutcome, next, successOutcome, thrownOutcome, toStructuredError, type CallContext, type ToolDescriptor, type ToolOutcome, type ToolSource } from '../../contracts/index.js';

export type OutputSchemaPublication = 'publish' | 'omit';

export interface HostTool<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  readOnly: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  input: I;
  output: O;
  handler: (args: z.output<I>, ctx: CallContext) => Promise<z.input<O>> | z.input<O>;
}

/** Keeps the handler's types tied to its schemas. */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(tool: HostTool<I, O>): HostTool {
  return tool as unknown as HostTool;
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchemaObject {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return { ...rest, type: 'object' };
}

export function describeTool(tool: HostTool, outputSchema: OutputSchemaPublication): ToolDescriptor {
  const descriptor: ToolDescriptor = {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, 'input') as ToolDescriptor['inputSchema'],
    annotations: {
      title: tool.title,
      readOnlyHint: tool.readOnly,
      destructiveHint: tool.destructive ?? false,
      idempotentHint: tool.idempotent ?? tool.readOnly,
      openWorldHint: false,
    },
  };
  if (outputSchema === 'publish') descriptor.outputSchema = jsonSchema(tool.output, 'output') as ToolDescriptor['outputSchema'];
  return descriptor;
}

/**
 * The failure of a call to `tool`. Operations deep in the host know that arguments were wrong but not
 * which tool carried them; the tool being called is the one to call again with fixed arguments.
 */
function failureOf(tool: string, error: unknown): ToolOutcome {
  const structured = toStructuredError(error);
  const fix = structured.next?.kind === 'fixArguments' && structured.next.tools.length === 0 ? { next: next('fixArguments', tool) } : {};
  return errorOutcome({ ...structured, ...fix });
}

function invalidArguments(issues: z.core.$ZodIssue[]): JunctionError {
  return new JunctionError('InvalidArguments', issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '), {
    next: next('fixArguments'),
    details: { issues: issues.map((i) => ({ path: i.path.map(String), message: i.message, code: i.code })) },
  });
}

export function createToolSource(id: string, tools: readonly HostTool[], outputSchema: OutputSchemaPublication): ToolSource {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const descriptors = tools.map((t) => describeTool(t, outputSchema));
  return {
    id,
    listTools: () => descriptors,
    async callTool(name, args, ctx) {
      const tool = byName.get(name);
      if (!tool) return failureOf(name, new JunctionError('ToolNotFound', `No host tool '${name}' in this mode.`, { next: next('inspectStatus', 'server-status'), details: { name } }));
      const parsed = tool.input.safeParse(args);
      if (!parsed.success) return failureOf(name, invalidArguments(parsed.error.issues));
      let value: unknown;
      try {
        value = await tool.handler(parsed.data, ctx);
      } catch (error) {
        return failureOf(name, error);
      }
      const admitted = tool.output.safeParse(value);
      if (!admitted.success) return thrownOutcome(new JunctionError('InternalError', `Tool '${name}' produced a result outside its contract.`));
      return successOutcome(admitted.data as Record<string, unknown>);
    },
    onToolsChanged: () => () => undefined,
  };
}
