/**
 * Every tool, resource, template and prompt the official MCP conformance suite's server scenarios
 * call, implemented as an ordinary SDK plugin so the suite exercises the whole bridge: results,
 * progress, logging, sampling, elicitation and roots through the hub (each question under the key the
 * suite's fixture names), questions from a prompt handler, completion and subscriptions.
 */
import { z } from 'zod';
import { createPlugin, type AgentRequests, type ElicitationResult, type McpPlugin, type ToolContext } from '../../sdk/index.js';

export interface ConformancePluginOptions {
  endpoint: string;
  token?: string;
  reconnectDelaysMs?: number[];
  /** How often a subscribed `test://watched-resource` changes. */
  watchIntervalMs?: number;
}

/** A 1x1 PNG. */
export const TEST_IMAGE_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** A valid WAV file: 8 kHz, 8-bit mono, eight samples of silence. */
function silentWav(): string {
  const samples = Buffer.alloc(8, 0x80);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]).toString('base64');
}
export const TEST_AUDIO_BASE64 = silentWav();

const noArgs = z.object({});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A wait the call's cancellation ends early, failing the call as cancelled. */
const abortableSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('Cancelled.'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('Cancelled.'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
const elicitationText = (prefix: string, result: ElicitationResult) => `${prefix}: action=${result.action}, content=${JSON.stringify(result.content ?? {})}`;

/** Values offered for `test_prompt_with_arguments` arguments, filtered by what the agent typed. */
const COMPLETIONS = ['paris', 'park', 'party', 'test', 'testing', 'tested'];

async function logWhileRunning(_args: unknown, ctx: ToolContext): Promise<string> {
  ctx.log('info', 'Tool execution started');
  await sleep(50);
  ctx.log('info', 'Tool processing data');
  await sleep(50);
  ctx.log('info', 'Tool execution completed');
  return 'Tool with logging executed successfully';
}

export function createConformancePlugin(options: ConformancePluginOptions): McpPlugin {
  const plugin = createPlugin({
    name: 'conformance',
    version: '1.0.0',
    role: 'editor',
    endpoint: options.endpoint,
    ...(options.token ? { token: options.token } : {}),
    ...(options.reconnectDelaysMs ? { reconnectDelaysMs: options.reconnectDelaysMs } : {}),
  });

  plugin
    .tool({ name: 'test_simple_text', description: 'Tests simple text content response', input: noArgs, handler: () => 'This is a simple text response for testing.' })
    .tool({
      name: 'test_image_content',
      description: 'Tests image content response',
      input: noArgs,
      handler: () => ({ content: [{ type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' }] }),
    })
    .tool({
      name: 'test_audio_content',
      description: 'Tests audio content response',
      input: noArgs,
      handler: () => ({ content: [{ type: 'audio', data: TEST_AUDIO_BASE64, mimeType: 'audio/wav' }] }),
    })
    .tool({
      name: 'test_embedded_resource',
      description: 'Tests embedded resource content response',
      input: noArgs,
      handler: () => ({
        content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } }],
      }),
    })
    .tool({
      name: 'test_multiple_content_types',
      description: 'Tests response with multiple content types (text, image, resource)',
      input: noArgs,
      handler: () => ({
        content: [
          { type: 'text', text: 'Multiple content types test:' },
          { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: JSON.stringify({ test: 'data', value: 123 }) } },
        ],
      }),
    })
    .tool({ name: 'test_tool_with_logging', description: 'Tests tool that emits log messages during execution', input: noArgs, handler: logWhileRunning })
    .tool({
      name: 'test_tool_with_progress',
      description: 'Tests tool that reports progress notifications',
      input: noArgs,
      handler: async (_args, ctx) => {
        for (const step of [0, 50, 100]) {
          ctx.progress(step, 100, `Completed step ${step} of 100`);
          if (step < 100) await sleep(50);
        }
        return 'Progress reported: 0, 50 and 100 of 100';
      },
    })
    .tool({
      name: 'test_error_handling',
      description: 'Tests error response handling',
      input: noArgs,
      handler: () => {
        throw new Error('This tool intentionally returns an error for testing');
      },
    })
    .tool({
      name: 'test_sampling',
      description: 'Tests server-initiated sampling (LLM completion request)',
      input: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
      handler: async ({ prompt }, ctx) => {
        const result = await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
        const content = result.content as { text?: unknown } | undefined;
        return `LLM response: ${typeof content?.text === 'string' ? content.text : JSON.stringify(result.content)}`;
      },
    })
    .tool({
      name: 'test_elicitation',
      description: 'Tests server-initiated elicitation (user input request)',
      input: z.object({ message: z.string().describe('The message to show the user') }),
      handler: async ({ message }, ctx) => {
        const result = await ctx.elicit(message, {
          type: 'object',
          properties: { response: { type: 'string', description: "User's response" } },
          required: ['response'],
        });
        return elicitationText('User response', result);
      },
    })
    .tool({
      name: 'test_elicitation_sep1034_defaults',
      description: 'Tests elicitation with default values per SEP-1034',
      input: noArgs,
      handler: async (_args, ctx) => {
        const result = await ctx.elicit('Please review and update the form fields with defaults', {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'User name', default: 'John Doe' },
            age: { type: 'integer', description: 'User age', default: 30 },
            score: { type: 'number', description: 'User score', default: 95.5 },
            status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
            verified: { type: 'boolean', description: 'Verification status', default: true },
          },
          required: [],
        });
        return elicitationText('Elicitation completed', result);
      },
    })
    .tool({
      name: 'test_elicitation_sep1330_enums',
      description: 'Tests elicitation with enum schema improvements per SEP-1330',
      input: noArgs,
      handler: async (_args, ctx) => {
        const titled = (prefix: string, word: string) => ['First', 'Second', 'Third'].map((n, i) => ({ const: `${prefix}${i + 1}`, title: `${n} ${word}` }));
        const result = await ctx.elicit('Please select options from the enum fields', {
          type: 'object',
          properties: {
            untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
            titledSingle: { type: 'string', description: 'Select one option with titles', oneOf: titled('value', 'Option') },
            legacyEnum: { type: 'string', description: 'Select one option (legacy)', enum: ['opt1', 'opt2', 'opt3'], enumNames: ['Option One', 'Option Two', 'Option Three'] },
            untitledMulti: { type: 'array', description: 'Select multiple options', minItems: 1, maxItems: 3, items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
            titledMulti: { type: 'array', description: 'Select multiple options with titles', minItems: 1, maxItems: 3, items: { anyOf: titled('value', 'Choice') } },
          },
          required: [],
        });
        return elicitationText('Elicitation completed', result);
      },
    })
    .tool({
      name: 'test_reconnection',
      description: 'SSE polling scenario (SEP-1699): Junction keeps the POST stream open, so the result arrives on it after a short wait',
      input: noArgs,
      handler: async () => {
        await sleep(100);
        return 'Reconnection test completed: the result was sent on the POST stream.';
      },
    })
    .tool({
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)',
      input: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        // SEP-2106's broader vocabulary too: an anchor, composition and conditional keywords reach agents unchanged.
        $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      },
      handler: (args) => `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`,
    });

  // The 2026-07-28 scenarios: the tool asks through the bridge as always, each question under the key
  // the suite's fixture gives it; Junction turns the questions into an input-required result for a
  // stateless agent and resumes the call with its answers.
  const askName = (ctx: AgentRequests) => ctx.elicit('What is your name?', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, { key: 'user_name' });
  const greeting = (ctx: AgentRequests) => ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 }, { key: 'greeting' });
  const rootsOf = async (ctx: AgentRequests) => (await ctx.listRoots({ key: 'client_roots' })).roots.map((root) => root.uri).join(', ');
  const sampledText = (result: Record<string, unknown>) => {
    const content = result['content'] as { text?: unknown } | undefined;
    return typeof content?.text === 'string' ? content.text : JSON.stringify(result['content']);
  };
  let dynamicToolVersion = 0;
  let dynamicPromptVersion = 0;
  plugin
    .tool({
      name: 'test_input_required_result_elicitation',
      description: 'Asks the agent for a name (an elicitation), then greets it',
      input: noArgs,
      handler: async (_args, ctx) => `Hello, ${String((await askName(ctx)).content?.['name'] ?? 'nobody')}!`,
    })
    .tool({
      name: 'test_input_required_result_sampling',
      description: 'Asks the agent for a completion (sampling)',
      input: noArgs,
      handler: async (_args, ctx) =>
        `Sampled: ${sampledText(await ctx.sample({ messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 }, { key: 'capital_question' }))}`,
    })
    .tool({ name: 'test_input_required_result_list_roots', description: "Asks the agent for its roots and names them", input: noArgs, handler: async (_args, ctx) => `Roots: ${await rootsOf(ctx)}` })
    .tool({
      name: 'test_input_required_result_request_state',
      description: 'Asks for a confirmation; Junction seals the request state between the rounds',
      input: noArgs,
      handler: async (_args, ctx) => {
        const answer = await ctx.elicit('Please confirm', { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }, { key: 'confirm' });
        return `state-ok: confirmed=${String(answer.content?.['ok'])}`;
      },
    })
    .tool({ name: 'test_input_required_result_tampered_state', description: 'Asks for a confirmation (the retry must carry the untouched state)', input: noArgs, handler: async (_args, ctx) => elicitationText('Confirmed', await ctx.elicit('Please confirm', { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] })) })
    .tool({
      name: 'test_input_required_result_multi_round',
      description: 'Asks two questions one after the other',
      input: noArgs,
      handler: async (_args, ctx) => {
        const name = await ctx.elicit('Step 1: What is your name?', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }, { key: 'step1' });
        const color = await ctx.elicit('Step 2: What is your favorite color?', { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] }, { key: 'step2' });
        return `${String(name.content?.['name'])} likes ${String(color.content?.['color'])}`;
      },
    })
    .tool({
      name: 'test_input_required_result_multiple_inputs',
      description: 'Asks an elicitation, a sampling and a roots question in the same turn',
      input: noArgs,
      handler: async (_args, ctx) => {
        const [name, sampled, roots] = await Promise.all([askName(ctx), greeting(ctx), rootsOf(ctx)]);
        return `${sampledText(sampled)}, ${String(name.content?.['name'])} (roots: ${roots})`;
      },
    })
    // The tasks extension's fixtures (SEP-2663): each long tool calls ctx.processing() where its long part begins.
    .tool({ name: 'greet', description: 'Greets at once (never a task)', input: z.object({ name: z.string() }), handler: ({ name }) => `Hello, ${name}!` })
    .tool({
      name: 'slow_compute',
      description: 'Computes for `seconds` seconds as a task; cancellation stops it',
      input: z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() }),
      taskSupport: 'optional',
      handler: async ({ seconds, label }, ctx) => {
        ctx.processing(`Computing ${label ?? 'a result'} for ${seconds} s`);
        await abortableSleep(seconds * 1000, ctx.signal);
        return `Computed ${label ?? 'a result'} in ${seconds} s`;
      },
    })
    .tool({
      name: 'failing_job',
      description: 'Runs for a second as a task, then reports a tool error',
      input: noArgs,
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        ctx.processing('Running the job');
        await abortableSleep(1000, ctx.signal);
        return { content: [{ type: 'text', text: 'The job failed: the input was rejected.' }], isError: true };
      },
    })
    .tool({
      name: 'protocol_error_job',
      description: 'Runs for a second as a task, then answers an image whose data is not base64: no tool answer the bridge can pass on',
      input: noArgs,
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        ctx.processing('Rendering the preview');
        await abortableSleep(1000, ctx.signal);
        return { content: [{ type: 'image', data: 'the renderer crashed: not base64', mimeType: 'image/png' }] };
      },
    })
    .tool({
      name: 'confirm_delete',
      description: 'Asks, as a task, whether to delete a file',
      input: z.object({ filename: z.string() }),
      taskSupport: 'optional',
      handler: async ({ filename }, ctx) => {
        ctx.processing(`Preparing to delete ${filename}`);
        const answer = await ctx.elicit(`Delete ${filename}?`, { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] });
        return answer.action === 'accept' && answer.content?.['confirm'] === true ? `Deleted ${filename}` : `Kept ${filename}`;
      },
    })
    .tool({
      name: 'multi_input',
      description: 'Asks two questions at once, as a task',
      input: noArgs,
      taskSupport: 'optional',
      handler: async (_args, ctx) => {
        ctx.processing('Gathering two answers');
        const schema = { type: 'object', properties: { name: { type: 'string' }, confirm: { type: 'boolean' } } } as const;
        const answers = await Promise.all([ctx.elicit('First question', schema), ctx.elicit('Second question', schema)]);
        return `Answered: ${answers.map((a) => String(a.content?.['name'] ?? a.action)).join(', ')}`;
      },
    })
    .tool({
      name: 'test_tool_with_task',
      description: 'Asks for a name in the call itself, then finishes as a task',
      input: noArgs,
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        const answer = await ctx.elicit('What is your name?', { type: 'object', properties: { user_name: { type: 'string' } }, required: ['user_name'] }, { key: 'user_name' });
        const name = Object.values(answer.content ?? {}).find((v) => typeof v === 'string') ?? 'nobody';
        ctx.processing(`Greeting ${String(name)}`);
        await abortableSleep(300, ctx.signal);
        return `Hello, ${String(name)}!`;
      },
    })
    .tool({
      name: 'test_input_required_result_capabilities',
      description: 'Asks what the agent can answer: questions for undeclared capabilities are refused to the tool',
      input: noArgs,
      handler: async (_args, ctx) => {
        const answers = await Promise.allSettled([askName(ctx), greeting(ctx)]);
        return `answered ${answers.filter((a) => a.status === 'fulfilled').length} of ${answers.length}`;
      },
    })
    .tool({ name: 'test_missing_capability', description: 'Needs sampling: an agent that does not declare it is refused', input: noArgs, handler: async (_args, ctx) => `Sampled: ${sampledText(await greeting(ctx))}` })
    .tool({ name: 'test_streaming_elicitation', description: 'Elicits during the call (input-required for stateless agents)', input: noArgs, handler: async (_args, ctx) => elicitationText('Streamed', await askName(ctx)) })
    .tool({ name: 'test_logging_tool', description: 'Logs while it runs (a 2026-07-28 agent hears it only if it set a log level)', input: noArgs, handler: logWhileRunning })
    .tool({
      name: 'test_custom_header',
      description: 'Has a parameter mirrored into an Mcp-Param header (x-mcp-header, SEP-2243)',
      input: { type: 'object', properties: { region: { type: 'string', description: 'Where to run', 'x-mcp-header': 'Region' } }, required: ['region'] },
      handler: (args) => `Region: ${String(args['region'])}`,
    })
    .tool({
      name: 'test_trigger_tool_change',
      description: 'Republishes a tool, so the catalogue changes',
      input: noArgs,
      handler: () => {
        dynamicToolVersion++;
        plugin.tool({ name: 'test_dynamic_tool', description: `A tool republished ${dynamicToolVersion} times`, input: noArgs, handler: () => `version ${dynamicToolVersion}` });
        return `tool list changed (${dynamicToolVersion})`;
      },
    })
    .tool({
      name: 'test_trigger_prompt_change',
      description: 'Republishes a prompt, so the prompt list changes',
      input: noArgs,
      handler: () => {
        dynamicPromptVersion++;
        plugin.prompt({ name: 'test_dynamic_prompt', description: `A prompt republished ${dynamicPromptVersion} times`, handler: () => `version ${dynamicPromptVersion}` });
        return `prompt list changed (${dynamicPromptVersion})`;
      },
    });

  let watchedVersion = 0;
  let watchTimer: NodeJS.Timeout | undefined;
  plugin
    .resource({ uri: 'test://static-text', name: 'static-text', description: 'A static text resource for testing', mimeType: 'text/plain', read: () => 'This is the content of the static text resource.' })
    .resource({ uri: 'test://static-binary', name: 'static-binary', description: 'A static binary resource (image) for testing', mimeType: 'image/png', read: () => ({ blob: TEST_IMAGE_BASE64, mimeType: 'image/png' }) })
    .resource({
      uri: 'test://template/{id}/data',
      name: 'template',
      description: 'A resource template with parameter substitution',
      mimeType: 'application/json',
      read: (uri) => {
        const id = /^test:\/\/template\/([^/]+)\/data$/.exec(uri)?.[1] ?? '';
        return { text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }), mimeType: 'application/json' };
      },
    })
    .resource({ uri: 'test://watched-resource', name: 'watched-resource', description: 'A resource that changes while subscribed', mimeType: 'text/plain', read: () => `Watched resource content, version ${watchedVersion}` });

  plugin.on('subscription', ({ uri, subscribed }) => {
    if (uri !== 'test://watched-resource') return;
    clearInterval(watchTimer);
    watchTimer = undefined;
    if (!subscribed) return;
    watchTimer = setInterval(() => {
      watchedVersion++;
      plugin.notifyResourceUpdated(uri);
    }, options.watchIntervalMs ?? 3_000);
    watchTimer.unref();
  });
  plugin.on('stopped', () => clearInterval(watchTimer));

  plugin
    .prompt({ name: 'test_simple_prompt', title: 'Simple Test Prompt', description: 'A simple prompt without arguments', handler: () => 'This is a simple prompt for testing.' })
    .prompt({
      name: 'test_prompt_with_arguments',
      title: 'Prompt With Arguments',
      description: 'A prompt with required arguments',
      arguments: [
        { name: 'arg1', description: 'First test argument', required: true },
        { name: 'arg2', description: 'Second test argument', required: true },
      ],
      handler: (args) => `Prompt with arguments: arg1='${args['arg1'] ?? ''}', arg2='${args['arg2'] ?? ''}'`,
    })
    .prompt({
      name: 'test_prompt_with_embedded_resource',
      title: 'Prompt With Embedded Resource',
      description: 'A prompt that includes an embedded resource',
      arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
      handler: (args) => [
        { role: 'user', content: { type: 'resource', resource: { uri: args['resourceUri'] ?? '', mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
        { role: 'user', text: 'Please process the embedded resource above.' },
      ],
    })
    .prompt({
      name: 'test_input_required_result_prompt',
      title: 'Prompt That Asks',
      description: 'Asks the agent for the context to use before it renders (an input-required prompts/get on 2026-07-28)',
      handler: async (_args, ctx) => {
        const answer = await ctx.elicit('What context should the prompt use?', { type: 'object', properties: { context: { type: 'string' } }, required: ['context'] }, { key: 'user_context' });
        return `Use this context: ${String(answer.content?.['context'] ?? answer.action)}`;
      },
    })
    .prompt({
      name: 'test_prompt_with_image',
      title: 'Prompt With Image',
      description: 'A prompt that includes image content',
      handler: () => [
        { role: 'user', content: { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' } },
        { role: 'user', text: 'Please analyze the image above.' },
      ],
    })
    .completion(({ argument }) => {
      const values = COMPLETIONS.filter((v) => v.startsWith(argument.value.toLowerCase()));
      return { values, total: values.length, hasMore: false };
    });

  return plugin;
}
