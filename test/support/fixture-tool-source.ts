/**
 * A small real ToolSource for testing the MCP room on its own: each tool exercises one outcome shape.
 */
import { JunctionError } from '../../src-main/contracts/errors.js';
import { errorOutcome, successOutcome, thrownOutcome, type ToolDescriptor, type ToolSource } from '../../src-main/contracts/tool-source.js';
import { TypedEmitter } from '../../src-main/shared/typed-emitter.js';

export function createFixtureToolSource(id = 'fixture') {
  const emitter = new TypedEmitter<{ changed: undefined }>();
  const tools: ToolDescriptor[] = [
    { name: 'echo', description: 'Returns its arguments.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    { name: 'fail-thrown', description: 'Fails as a tool-thrown error.', inputSchema: { type: 'object' } },
    { name: 'fail-conflict', description: 'Fails with a conflict.', inputSchema: { type: 'object' } },
    { name: 'slow', description: 'Reports progress, then answers.', inputSchema: { type: 'object', properties: { steps: { type: 'number' } } } },
  ];
  const source: ToolSource & { addTool(t: ToolDescriptor): void; seenArgs: unknown[] } = {
    id,
    seenArgs: [],
    listTools: () => tools,
    onToolsChanged: (listener) => emitter.on('changed', listener),
    addTool(tool) {
      tools.push(tool);
      emitter.emit('changed', undefined);
    },
    async callTool(name, args, ctx) {
      source.seenArgs.push(args);
      switch (name) {
        case 'echo':
          return successOutcome({ echoed: args });
        case 'fail-thrown':
          return errorOutcome({ code: 'ToolFailed', message: 'the scene has no camera' });
        case 'fail-conflict':
          return thrownOutcome(new JunctionError('Conflict', 'object is locked by another edit'));
        case 'slow': {
          const steps = typeof args.steps === 'number' ? args.steps : 3;
          for (let i = 1; i <= steps; i++) ctx.progress?.({ progress: i, total: steps, message: `step ${i}` });
          return successOutcome({ steps });
        }
        default:
          return errorOutcome({ code: 'ToolNotFound', message: name });
      }
    },
  };
  return source;
}
