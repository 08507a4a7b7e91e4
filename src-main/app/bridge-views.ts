/** What the console's Bridge view shows: endpoints and the exact snippets operators paste into MCP clients, and who uses which project. */
import type { AgentPresence } from '../bridge/presence/index.js';
import type { PinnedProject, ProjectRoutingControl } from '../bridge/projects/index.js';
import type { AgentView, BridgeView, ProjectEndpointView, ProjectRouting } from '../contracts/index.js';

/** A server name MCP clients accept as a JSON key and a person recognises: `junction-<project>`. */
function serverName(project: PinnedProject): string {
  const slug = (project.projectName ?? project.pin).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
  return `junction-${slug || project.pin}`;
}

export function bridgeView(options: {
  running: boolean;
  host: string;
  port: number;
  cliArgs: string[];
  token?: string | undefined;
  projectRouting?: ProjectRouting;
  projects?: readonly PinnedProject[];
}): BridgeView {
  const displayHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  const base = `http://${displayHost}:${options.port}`;
  const mcpUrl = `${base}/mcp`;
  const connectArgs = [...options.cliArgs, 'connect', '--port', String(options.port)];
  const headers = options.token ? { Authorization: `Bearer ${options.token}` } : undefined;
  const projects: ProjectEndpointView[] = (options.projects ?? []).map((project) => {
    const url = `${base}/p/${project.pin}/mcp`;
    return {
      key: project.key,
      label: project.label,
      pin: project.pin,
      mcpUrl: url,
      apiUrl: `${base}/p/${project.pin}/api/tools`,
      snippet: JSON.stringify({ mcpServers: { [serverName(project)]: { type: 'http', url, ...(headers ? { headers } : {}) } } }, null, 2),
      stdioSnippet: JSON.stringify({ mcpServers: { [serverName(project)]: { command: 'node', args: [...connectArgs, `project-pin=${project.pin}`] } } }, null, 2),
    };
  });
  return {
    running: options.running,
    host: options.host,
    port: options.port,
    hubUrl: `${base}/hub/mcp-server`,
    mcpUrl,
    apiUrl: `${base}/api/tools`,
    transports: ['streamable-http', 'stdio'],
    snippets: [
      {
        client: 'Claude Desktop (stdio)',
        format: 'json',
        text: JSON.stringify({ mcpServers: { junction: { command: 'node', args: connectArgs } } }, null, 2),
      },
      {
        client: 'Any MCP client (streamable HTTP)',
        format: 'json',
        text: JSON.stringify({ mcpServers: { junction: { type: 'http', url: mcpUrl, ...(headers ? { headers } : {}) } } }, null, 2),
      },
      {
        client: 'Shell (direct HTTP)',
        format: 'shell',
        text: `curl -s -X POST ${base}/api/tools/server-status -H 'content-type: application/json'${options.token ? ` -H 'Authorization: Bearer ${options.token}'` : ''} -d '{}'`,
      },
    ],
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
    };
  });
}
