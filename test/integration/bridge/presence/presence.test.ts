import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CLI_SOURCE_FOR_TESTS } from '../../../support/cli.js';
import { DotnetLikePlugin, type ServerInvocation } from '../../../support/dotnet-like-plugin.js';
import { startTestJunction, type TestJunction } from '../../../support/junction-harness.js';

interface ClientData {
  isConnected: boolean;
  sessionId?: string;
  clientName?: string;
  clientVersion?: string;
  clientTitle?: string;
  [key: string]: unknown;
}

const PLUGIN_QUERY = { instanceId: 'presence-instance', engine: 'unity', projectName: 'PresenceGame', projectPathHash: 'abcdef0123', machineName: 'PC' };

/** The `connected`/`disconnected` agent argument of an OnMcpClient* invocation. */
const agentOf = (invocation: ServerInvocation) => invocation.arguments[0] as ClientData;
const listOf = (invocation: ServerInvocation) => invocation.arguments[1] as ClientData[];
const named = (name: string) => (args: unknown[]) => (args[0] as ClientData).clientName === name;
const startingWith = (prefix: string) => (args: unknown[]) => (args[0] as ClientData).clientName?.startsWith(prefix) === true;

describe('agent presence reaches plugins as McpPlugin.Server sends it', () => {
  let junction: TestJunction;
  let plugin: DotnetLikePlugin;

  before(async () => {
    junction = await startTestJunction();
    plugin = await DotnetLikePlugin.connect(`${junction.baseUrl}/hub/mcp-server`, PLUGIN_QUERY);
  });
  after(async () => {
    await plugin.close();
    await junction.stop();
  });

  test('OnInitialClientData on connect, then connect/disconnect of a real MCP SDK session, field by field', async () => {
    const initial = await plugin.waitFor('OnInitialClientData');
    assert.deepEqual(initial.arguments, [[]], 'no agent yet: one argument, an empty list');
    assert.equal(initial.invocationId, undefined, 'a notification, not a client result');

    const server = (await plugin.invoke('GetMcpServerData')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(server).sort(), ['isAiAgentConnected', 'serverApiVersion', 'serverTransport', 'serverVersion']);
    assert.equal(server['isAiAgentConnected'], false);
    assert.equal(server['serverApiVersion'], '2.0.0');
    assert.equal(server['serverTransport'], 'streamableHttp');
    assert.match(String(server['serverVersion']), /^\d+\.\d+\.\d+/);

    const transport = new StreamableHTTPClientTransport(new URL(`${junction.baseUrl}/mcp`));
    const agent = new Client({ name: 'presence-agent', version: '2.5.0' });
    await agent.connect(transport);
    const sessionId = transport.sessionId;
    assert.ok(sessionId);

    const connected = await plugin.waitFor('OnMcpClientConnected', named('presence-agent'));
    assert.deepEqual(agentOf(connected), { isConnected: true, sessionId, clientName: 'presence-agent', clientVersion: '2.5.0' });
    assert.deepEqual(listOf(connected), [agentOf(connected)]);

    const live = (await plugin.invoke('GetMcpClientData')) as ClientData[];
    assert.deepEqual(live, [{ isConnected: true, sessionId, clientName: 'presence-agent', clientVersion: '2.5.0' }]);
    assert.equal(((await plugin.invoke('GetMcpServerData')) as { isAiAgentConnected: boolean }).isAiAgentConnected, true);

    // A plugin connecting now is told about the agent already there.
    const late = await DotnetLikePlugin.connect(`${junction.baseUrl}/hub/mcp-server`, { ...PLUGIN_QUERY, instanceId: 'late' });
    try {
      const lateInitial = await late.waitFor('OnInitialClientData');
      assert.deepEqual(lateInitial.arguments, [live]);
    } finally {
      await late.close();
    }

    await transport.terminateSession();
    await agent.close();
    const gone = await plugin.waitFor('OnMcpClientDisconnected', named('presence-agent'));
    assert.deepEqual(agentOf(gone), { isConnected: false, sessionId, clientName: 'presence-agent', clientVersion: '2.5.0' });
    assert.deepEqual(listOf(gone), []);
    assert.deepEqual(await plugin.invoke('GetMcpClientData'), []);
    assert.equal(((await plugin.invoke('GetMcpServerData')) as { isAiAgentConnected: boolean }).isAiAgentConnected, false);
  });

  test('an agent behind the stdio relay (`junction connect`) comes and goes', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...CLI_SOURCE_FOR_TESTS, 'connect', '--port', String(junction.port), 'log-level=error'],
      stderr: 'pipe',
    });
    const agent = new Client({ name: 'stdio-agent', version: '1.1.0' });
    await agent.connect(transport);
    const connected = await plugin.waitFor('OnMcpClientConnected', named('stdio-agent'), 20_000);
    assert.equal(agentOf(connected).isConnected, true);
    assert.equal(agentOf(connected).clientVersion, '1.1.0');
    await agent.close();
    const gone = await plugin.waitFor('OnMcpClientDisconnected', named('stdio-agent'), 20_000);
    assert.equal(agentOf(gone).sessionId, agentOf(connected).sessionId, 'the relay ended its session when the agent left');
  });
});

describe('direct HTTP API callers are agents too', () => {
  let junction: TestJunction;
  let plugin: DotnetLikePlugin;

  before(async () => {
    junction = await startTestJunction(['idle-timeout-seconds=1']);
    plugin = await DotnetLikePlugin.connect(`${junction.baseUrl}/hub/mcp-server`, PLUGIN_QUERY);
  });
  after(async () => {
    await plugin.close();
    await junction.stop();
  });

  test('two distinct callers are announced separately and leave after the idle timeout', async () => {
    const call = (userAgent: string) =>
      fetch(`${junction.baseUrl}/api/tools/server-status`, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': userAgent }, body: '{}' });
    assert.equal((await call('script-one/1.0')).status, 200);
    assert.equal((await call('script-one/1.0')).status, 200);
    assert.equal((await call('script-two/3.1')).status, 200);
    const one = await plugin.waitFor('OnMcpClientConnected', startingWith('http 127.0.0.1 script-one/1.0'));
    const two = await plugin.waitFor('OnMcpClientConnected', startingWith('http 127.0.0.1 script-two/3.1'));
    assert.equal(plugin.received.filter((r) => r.target === 'OnMcpClientConnected' && named(agentOf(one).clientName ?? '')(r.arguments)).length, 1, 'a second call is the same agent');
    assert.notEqual(agentOf(one).sessionId, agentOf(two).sessionId);
    assert.equal(agentOf(one).clientTitle, 'Direct HTTP API');
    assert.equal(listOf(two).length, 2);
    const gone = await plugin.waitFor('OnMcpClientDisconnected', startingWith('http 127.0.0.1 script-one'), 10_000);
    assert.equal(agentOf(gone).isConnected, false);
    await plugin.waitFor('OnMcpClientDisconnected', startingWith('http 127.0.0.1 script-two'), 10_000);
    assert.deepEqual(await plugin.invoke('GetMcpClientData'), []);
  });
});
