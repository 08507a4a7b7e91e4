/** The scene app as an McpPlugin: its tools, prompt and resources over the SDK. */
import { z } from 'zod';
import { createPlugin, type McpPlugin, type PluginRole } from '../../sdk/index.js';
import { OBJECT_KINDS, Scene } from './scene.js';

export interface ScenePluginOptions {
  endpoint: string;
  role: PluginRole;
  name?: string;
  token?: string;
  skipNegotiation?: boolean;
  reconnectDelaysMs?: number[];
  /** Share one scene between an editor and a runtime plugin, as one app's two builds would. */
  scene?: Scene;
}

export interface RunningScenePlugin {
  plugin: McpPlugin;
  scene: Scene;
  stop(): Promise<void>;
}

const vector = z.object({ x: z.number(), y: z.number(), z: z.number() });
const DEFAULT_LIMIT = 20;

export function createScenePlugin(options: ScenePluginOptions): { plugin: McpPlugin; scene: Scene } {
  const scene = options.scene ?? new Scene();
  const plugin = createPlugin({
    name: options.name ?? 'scene',
    version: '1.0.0',
    role: options.role,
    endpoint: options.endpoint,
    ...(options.token ? { token: options.token } : {}),
    ...(options.skipNegotiation === undefined ? {} : { skipNegotiation: options.skipNegotiation }),
    ...(options.reconnectDelaysMs ? { reconnectDelaysMs: options.reconnectDelaysMs } : {}),
  });

  plugin.tool({
    name: 'add-object',
    title: 'Add object',
    description: 'Adds an object to the live scene and returns it with its new id.',
    input: z.object({ name: z.string().min(1), kind: z.enum(OBJECT_KINDS), position: vector.optional() }),
    handler: (args) => ({ object: scene.add(args) }),
  });

  plugin.tool({
    name: 'list-objects',
    title: 'List objects',
    description: `Lists the scene's objects, at most \`limit\` (default ${DEFAULT_LIMIT}; 0 returns none).`,
    input: z.object({ limit: z.number().int().min(0).nullable().default(DEFAULT_LIMIT) }),
    annotations: { readOnlyHint: true, idempotentHint: true },
    handler: ({ limit }) => scene.list(limit ?? DEFAULT_LIMIT) as unknown as Record<string, unknown>,
  });

  plugin.tool({
    name: 'remove-object',
    title: 'Remove object',
    description: 'Removes the object with the given id from the scene.',
    input: z.object({ id: z.string().min(1) }),
    annotations: { destructiveHint: true, idempotentHint: true },
    handler: ({ id }) => {
      if (!scene.remove(id)) throw new Error(`No object with id '${id}' is in the scene; call list-objects for the current ids.`);
      return { removed: id };
    },
  });

  plugin.tool({
    name: 'simulate-step',
    title: 'Simulate step',
    description: 'Advances the running game simulation (gravity) by a number of fixed steps. Only a running game can do this.',
    input: z.object({ steps: z.number().int().min(1).max(1000).default(1), dt: z.number().positive().max(1).default(1 / 60) }),
    target: 'runtime',
    handler: async ({ steps, dt }, ctx) => {
      const result = scene.step(steps, dt);
      ctx.progress(steps, steps, `simulated ${steps} step(s)`);
      return result;
    },
  });

  plugin.prompt({
    name: 'describe-scene',
    title: 'Describe the scene',
    description: 'Asks the model to describe the current scene, optionally focusing on one kind of object.',
    arguments: [{ name: 'focus', description: `One of ${OBJECT_KINDS.join(', ')}` }],
    handler: ({ focus }) => {
      const objects = scene.list(scene.size).items.filter((o) => !focus || o.kind === focus);
      const lines = objects.map((o) => `- ${o.name} (${o.kind}) at (${o.position.x}, ${o.position.y}, ${o.position.z})`);
      return `Describe this scene${focus ? `, focusing on ${focus} objects` : ''}:\n${lines.join('\n') || '(the scene is empty)'}`;
    },
  });

  plugin.resource({
    uri: 'scene://objects',
    name: 'scene-objects',
    description: 'Every object in the scene as JSON.',
    mimeType: 'application/json',
    read: () => JSON.stringify(scene.list(scene.size).items),
  });

  plugin.resource({
    uri: 'scene://objects/{id}',
    name: 'scene-object',
    description: 'One object of the scene as JSON.',
    mimeType: 'application/json',
    read: (uri) => {
      const id = uri.slice('scene://objects/'.length);
      const object = scene.get(id);
      if (!object) throw new Error(`No object with id '${id}'.`);
      return JSON.stringify(object);
    },
  });

  return { plugin, scene };
}

/** Creates the scene plugin and connects it; resolves once the bridge accepted it. */
export async function startScenePlugin(options: ScenePluginOptions): Promise<RunningScenePlugin> {
  const { plugin, scene } = createScenePlugin(options);
  await plugin.connect();
  return { plugin, scene, stop: () => plugin.disconnect() };
}
