/**
 * A raw `ws` plugin that connects the way the .NET McpPlugin 8.x client does (specs §0): negotiate
 * first, then the WebSocket, with only the client's own hub query fields (`instance_id`, `engine`,
 * `project_name`, `project_path_hash`, `project_path_hash_legacy`, `machine_name`), no `client_role`,
 * no `mcpPluginVersion`. It records every invocation the server sends and answers the ones that expect
 * a result from a table of handlers, so tests can check what a real client would receive.
 */
import WebSocket from 'ws';

const RS = '\u001e';

export interface DotnetQuery {
  instanceId: string;
  engine?: string;
  projectName?: string;
  projectPathHash?: string;
  projectPathHashLegacy?: string;
  machineName?: string;
}

export interface ServerInvocation {
  target: string;
  arguments: unknown[];
  invocationId?: string;
}

type Handler = (...args: unknown[]) => unknown;

/** Reads a payload property the way the .NET client's JSON reader does: by name, in any case (`RequestID`, `requestId`). */
export function field(payload: unknown, name: string): unknown {
  if (payload === null || typeof payload !== 'object') return undefined;
  const wanted = name.toLowerCase();
  const entry = Object.entries(payload).find(([key]) => key.toLowerCase() === wanted);
  return entry?.[1];
}

export class DotnetLikePlugin {
  readonly received: ServerInvocation[] = [];
  private readonly handlers = new Map<string, Handler>();
  private readonly completions = new Map<string, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private readonly waiters = new Set<() => void>();
  private buffer = '';
  private nextId = 0;
  /** Set until the SignalR handshake reply (the first record) has arrived. */
  private onHandshake: ((record: string) => void) | undefined;
  private readonly handshakeReply = new Promise<string>((resolve) => (this.onHandshake = resolve));
  readonly closed: Promise<void>;

  private constructor(private readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.on('close', () => resolve()));
    ws.on('message', (data: Buffer) => this.receive(data.toString('utf8')));
  }

  /** Connects to `hubUrl` (…/hub/mcp-server) with the .NET client's query; resolves after the SignalR handshake. */
  static async connect(hubUrl: string, query: DotnetQuery, headers: Record<string, string> = {}): Promise<DotnetLikePlugin> {
    const params = new URLSearchParams();
    const fields: Array<[string, string | undefined]> = [
      ['instance_id', query.instanceId],
      ['engine', query.engine],
      ['project_name', query.projectName],
      ['project_path_hash', query.projectPathHash],
      ['project_path_hash_legacy', query.projectPathHashLegacy],
      ['machine_name', query.machineName],
    ];
    for (const [key, value] of fields) if (value) params.set(key, value);
    const negotiate = await fetch(`${hubUrl}/negotiate?negotiateVersion=1&${params}`, { method: 'POST', headers });
    if (negotiate.status !== 200) throw new Error(`negotiate answered ${negotiate.status}: ${await negotiate.text()}`);
    const { connectionToken } = (await negotiate.json()) as { connectionToken: string };
    const ws = new WebSocket(`${hubUrl.replace(/^http/, 'ws')}?id=${encodeURIComponent(connectionToken)}&${params}`, { headers });
    const plugin = new DotnetLikePlugin(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(`${JSON.stringify({ protocol: 'json', version: 1 })}${RS}`);
    const reply = JSON.parse(await plugin.handshakeReply) as { error?: string };
    if (reply.error) throw new Error(`hub handshake refused: ${reply.error}`);
    return plugin;
  }

  /** Answers the server's `target` invocations (RunListTool, RunCallTool, …) with the handler's value. */
  handle(target: string, handler: Handler): this {
    this.handlers.set(target.toLowerCase(), handler);
    return this;
  }

  /** Invokes a hub method and resolves with its result. */
  invoke(target: string, ...args: unknown[]): Promise<unknown> {
    const invocationId = String(++this.nextId);
    const result = new Promise<unknown>((resolve, reject) => this.completions.set(invocationId, { resolve, reject }));
    this.send({ type: 1, invocationId, target, arguments: args });
    return result;
  }

  /** Performs the version handshake as Unity-MCP does (its version and the Unity version, no `(runtime)`). */
  async versionHandshake(): Promise<{ compatible: boolean }> {
    return (await this.invoke('PerformVersionHandshake', { requestId: 'handshake', apiVersion: '2.0.0', pluginVersion: '0.89.0', environment: '2022.3.10f1' })) as { compatible: boolean };
  }

  /** Resolves with the first received invocation of `target` matching `where`, waiting up to `ms`. */
  async waitFor(target: string, where: (args: unknown[]) => boolean = () => true, ms = 10_000): Promise<ServerInvocation> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.received.find((r) => r.target === target && where(r.arguments));
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${target} arrived within ${ms} ms; got ${this.received.map((r) => r.target).join(', ') || 'nothing'}`);
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000);
    return this.closed;
  }

  private receive(text: string): void {
    this.buffer += text;
    if (this.onHandshake) {
      const end = this.buffer.indexOf(RS);
      if (end < 0) return;
      const record = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 1);
      const resolve = this.onHandshake;
      this.onHandshake = undefined;
      resolve(record);
    }
    this.drain();
  }

  private drain(): void {
    for (let end = this.buffer.indexOf(RS); end >= 0; end = this.buffer.indexOf(RS)) {
      const record = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 1);
      this.dispatch(JSON.parse(record) as { type: number; target?: string; arguments?: unknown[]; invocationId?: string; result?: unknown; error?: string });
    }
  }

  private dispatch(message: { type: number; target?: string; arguments?: unknown[]; invocationId?: string; result?: unknown; error?: string }): void {
    if (message.type === 1 && message.target) {
      const invocation: ServerInvocation = { target: message.target, arguments: message.arguments ?? [], ...(message.invocationId ? { invocationId: message.invocationId } : {}) };
      this.received.push(invocation);
      for (const wake of [...this.waiters]) wake();
      if (message.invocationId) {
        const handler = this.handlers.get(message.target.toLowerCase());
        Promise.resolve(handler ? handler(...invocation.arguments) : undefined).then(
          (result) => this.send({ type: 3, invocationId: message.invocationId, result }),
          (error: unknown) => this.send({ type: 3, invocationId: message.invocationId, error: String(error) }),
        );
      }
    } else if (message.type === 3 && message.invocationId) {
      const pending = this.completions.get(message.invocationId);
      this.completions.delete(message.invocationId);
      if (message.error !== undefined) pending?.reject(new Error(message.error));
      else pending?.resolve(message.result);
    }
  }

  private send(message: Record<string, unknown>): void {
    this.ws.send(`${JSON.stringify(message)}${RS}`);
  }
}
