/**
 * What the host publishes to agents besides tools: a resource template for the open workspaces' files
 * (`junction://workspace/{workspace}/file/{+path}`, read from the current snapshot) and the prompt
 * `use-tool`, which explains one tool of the agent's catalogue. Both exist so that agents can complete
 * workspace paths and tool names (`completion/complete`); values come from the snapshot the agent
 * currently sees and from the catalogue as the agent's project pin scopes it.
 */
import type { CompleteRequest, CompleteResult, GetPromptResult, Prompt, ReadResourceResult, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { JunctionError, next, type AgentScope, type ResourceSubscription, type ResourceUpdate, type ToolDescriptor } from '../contracts/index.js';
import { TypedEmitter } from '../shared/index.js';
import type { Workspace } from '../host/index.js';
import { completionOf } from './completion-values.js';

export const WORKSPACE_FILE_TEMPLATE = 'junction://workspace/{workspace}/file/{+path}';
export const USE_TOOL_PROMPT = 'use-tool';

const FILE_URI = /^junction:\/\/workspace\/([^/]+)\/file\/(.+)$/;

export interface HostContentDeps {
  workspaces: {
    list(): Workspace[];
    /** A workspace id, root or folder name; throws WorkspaceNotFound / WorkspaceSelectorRequired. */
    resolve(selector: string | undefined): Workspace;
  };
  /** The tools the agent sees, scoped by its project pin. */
  tools(scope?: AgentScope): readonly ToolDescriptor[];
}

type Completion = CompleteResult['completion'];

/** Host resources are the same for every project, so one topic per URI. */
const topicOf = (uri: string) => `host\n${uri}`;

export class HostContent {
  private readonly updates = new TypedEmitter<{ updated: ResourceUpdate }>();
  /** Subscribed URI → sessions holding it and the document's sha256 when last announced. */
  private readonly subscribed = new Map<string, { count: number; sha256: string | undefined }>();

  constructor(private readonly deps: HostContentDeps) {}

  prompts(): Prompt[] {
    return [
      {
        name: USE_TOOL_PROMPT,
        title: 'Use a tool',
        description: "Asks the model to call one of this server's tools, with its description and input schema.",
        arguments: [{ name: 'tool', description: 'Tool name.', required: true }],
      },
    ];
  }

  resourceTemplates(): ResourceTemplate[] {
    return [
      {
        uriTemplate: WORKSPACE_FILE_TEMPLATE,
        name: 'workspace-file',
        title: 'Workspace file',
        description: "A document of an open workspace as the agent currently sees it (the active transaction's head when one is active).",
        mimeType: 'text/plain',
      },
    ];
  }

  ownsPrompt(name: string): boolean {
    return name === USE_TOOL_PROMPT;
  }

  ownsResource(uri: string): boolean {
    return FILE_URI.test(uri);
  }

  /** Undefined when the reference is not the host's. */
  complete(params: CompleteRequest['params'], scope?: AgentScope): Completion | undefined {
    const { ref, argument } = params;
    if (ref.type === 'ref/prompt') {
      if (!this.ownsPrompt(ref.name)) return undefined;
      return argument.name === 'tool' ? completionOf(this.deps.tools(scope).map((t) => t.name), argument.value) : completionOf([], '');
    }
    if (ref.uri !== WORKSPACE_FILE_TEMPLATE) return undefined;
    if (argument.name === 'workspace') return completionOf(this.deps.workspaces.list().map((w) => w.name), argument.value);
    if (argument.name !== 'path') return completionOf([], '');
    const workspace = this.workspaceOrNone(params.context?.arguments?.['workspace']);
    return completionOf(workspace ? workspace.snapshot().paths() : [], argument.value);
  }

  getPrompt(name: string, args: Record<string, string>, scope?: AgentScope): GetPromptResult {
    const toolName = args['tool'];
    if (name !== USE_TOOL_PROMPT || !toolName) throw new JunctionError('InvalidArguments', `The prompt '${USE_TOOL_PROMPT}' needs the argument 'tool'.`);
    const tool = this.deps.tools(scope).find((t) => t.name === toolName);
    if (!tool) throw new JunctionError('ToolNotFound', `No tool named '${toolName}' is available to this session.`, { next: next('inspectStatus', 'server-status') });
    const text = [
      `Use the tool '${tool.name}'${tool.title ? ` (${tool.title})` : ''} for the task at hand.`,
      tool.description ?? '',
      `Its arguments follow this JSON Schema: ${JSON.stringify(tool.inputSchema)}`,
    ]
      .filter((line) => line !== '')
      .join('\n');
    return { description: `How to call ${tool.name}`, messages: [{ role: 'user', content: { type: 'text', text } }] };
  }

  /** Throws `ResourceNotFound`, `WorkspaceNotFound`, `WorkspaceSelectorRequired` or `DocumentNotFound`. */
  readResource(uri: string): ReadResourceResult {
    return { contents: [{ uri, mimeType: 'text/plain', text: this.documentOf(uri).text }] };
  }

  /** Throws as readResource does, so nobody subscribes to a file that is not there. */
  subscribe(uri: string): ResourceSubscription {
    const sha256 = this.documentOf(uri).sha256;
    const entry = this.subscribed.get(uri) ?? { count: 0, sha256 };
    entry.count += 1;
    this.subscribed.set(uri, entry);
    let held = true;
    return {
      topic: topicOf(uri),
      release: () => {
        if (!held) return;
        held = false;
        entry.count -= 1;
        if (entry.count === 0) this.subscribed.delete(uri);
      },
    };
  }

  /** A workspace changed (staged, rolled back, reloaded): subscribers of files whose text changed hear it. */
  workspaceChanged(): void {
    for (const [uri, entry] of this.subscribed) {
      const now = this.documentOrNone(uri);
      if (now === entry.sha256) continue;
      entry.sha256 = now;
      this.updates.emit('updated', { uri, topic: topicOf(uri) });
    }
  }

  onResourceUpdated(listener: (update: ResourceUpdate) => void): () => void {
    return this.updates.on('updated', listener);
  }

  subscriptionCount(): number {
    return this.subscribed.size;
  }

  private documentOrNone(uri: string): string | undefined {
    try {
      return this.documentOf(uri).sha256;
    } catch {
      return undefined;
    }
  }

  private documentOf(uri: string): { text: string; sha256: string } {
    const match = FILE_URI.exec(uri);
    if (!match) throw new JunctionError('ResourceNotFound', `'${uri}' is not a workspace file URI (${WORKSPACE_FILE_TEMPLATE}).`);
    const workspace = this.deps.workspaces.resolve(decodeURIComponent(match[1]!));
    const path = decodeURI(match[2]!);
    const document = workspace.snapshot().get(path);
    if (!document) throw new JunctionError('DocumentNotFound', `'${path}' is not a document of workspace '${workspace.name}'.`, { details: { path } });
    return document;
  }

  /** Completion is advisory: an unknown or ambiguous workspace offers no paths rather than an error. */
  private workspaceOrNone(selector: string | undefined): Workspace | undefined {
    try {
      return this.deps.workspaces.resolve(selector === '' ? undefined : selector);
    } catch {
      return undefined;
    }
  }
}
