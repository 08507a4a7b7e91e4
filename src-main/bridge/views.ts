/** What the console's Bridge view shows: endpoints and the exact snippets operators paste into MCP clients, and who uses which project. */
import type { AgentPresence } from './presence/index.js';
import type { PinnedProject, ProjectRoutingControl } from './projects/index.js';
import type { AgentView, BridgeView, ProjectEndpointView, ProjectRouting } from '../contracts/index.js';
import { clientSnippets, type ClientSetupTarget, type ConnectCommand } from './client-setup.js';

/** A server name MCP clients accept as a JSON key and a person recognises: `junction-<project>`. */
function serverName(project: PinnedProject): string {
  const slug = (project.projectName ?? project.pin).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `junction-${slug || project.pin}`;
}

/** Where agents on this machine reach a Junction bound to `host`: a wildcard bind is reached on loopback. */
function clientHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}

export function bridgeView(options: {
  running: boolean;
  host: string;
  port: number;
  cli: ConnectCommand;
  token?: string | undefined;
  projectRouting?: ProjectRouting;
  projects?: readonly PinnedProject[];
}): BridgeView {
  const host = clientHost(options.host);
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${options.port}`;
  const endpoint = (name: string, prefix: string, pin?: string): ClientSetupTarget => ({
    name,
    host,
    port: options.port,
    mcpUrl: `${base}${prefix}/mcp`,
    apiUrl: `${base}${prefix}/api/tools`,
    token: options.token,
    pin,
    cli: options.cli,
  });
  const projects: ProjectEndpointView[] = (options.projects ?? []).map((project) => {
    const target = endpoint(serverName(project), `/p/${project.pin}`, project.pin);
    const snippets = clientSnippets(target);
    const text = (client: string) => snippets.find((s) => s.client === client)?.text ?? '';
    return {
      key: project.key,
      label: project.label,
      pin: project.pin,
      mcpUrl: target.mcpUrl,
      apiUrl: target.apiUrl,
      snippet: text('Claude Code: .mcp.json (streamable HTTP)'),
      stdioSnippet: text('Claude Desktop (stdio)'),
      snippets,
    };
  });
  return {
    running: options.running,
    host: options.host,
    port: options.port,
    hubUrl: `${base}/hub/mcp-server`,
    mcpUrl: `${base}/mcp`,
    apiUrl: `${base}/api/tools`,
    transports: ['streamable-http', 'stdio'],
    snippets: clientSnippets(endpoint('junction', '')),
    projectRouting: options.projectRouting ?? 'single',
    projects,
  };
}

/** Connected agents, each with the project its calls go to right now (multi-project routing). */
export function agentViews(presence: AgentPresence, projects: Pick<ProjectRoutingControl, 'routeOf'>): AgentView[] {
  return presence.agents().map((agent) => {
    const projectKey = projects.routeOf({ sessionId: agent.sessionId, ...(agent.pin ? { pin: agent.pin } : {}) });
    return {
      sessionId: agent.sessionId,
      transport: agent.transport,
      ...(agent.client.name ? { clientName: agent.client.name } : {}),
      ...(agent.client.version ? { clientVersion: agent.client.version } : {}),
      ...(agent.pin ? { pin: agent.pin } : {}),
      ...(projectKey === undefined ? {} : { projectKey }),
      connectedAt: agent.connectedAt,
      ...(agent.protocolVersion ? { protocolVersion: agent.protocolVersion } : {}),
      ...(agent.callLabel ? { callLabel: agent.callLabel } : {}),
    };
  });
}
