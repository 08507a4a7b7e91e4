using ModelContextProtocol.Client;
using ModelContextProtocol.Protocol;
using Xunit;

namespace Junction.Interop.Tests;

/// <summary>The official C# MCP SDK as an agent, over streamable HTTP at /mcp.</summary>
public static class Agent
{
    /// <summary>
    /// The revisions Junction serves on one endpoint: the SDK speaks 2026-07-28 (stateless, no initialize) when
    /// left to choose; 2025-11-25 takes Junction's session path. Agent tests run on both.
    /// </summary>
    public static TheoryData<string> Revisions => new() { "2026-07-28", "2025-11-25" };

    /// <summary>A tool name of its own per revision, so a theory's next case never meets the last case's plugin on its way out.</summary>
    public static string Named(string tool, string revision) => $"{tool}-{revision[..4]}";

    public static async Task<McpClient> ConnectAsync(Uri baseUrl, string? revision = null, McpClientHandlers? handlers = null)
    {
        var options = new McpClientOptions { ClientInfo = new Implementation { Name = "dotnet-interop-agent", Version = "1.0.0" }, ProtocolVersion = revision };
        if (handlers != null) options.Handlers = handlers;
        var client = await McpClient.CreateAsync(
            new HttpClientTransport(new HttpClientTransportOptions { Endpoint = new Uri(baseUrl, "/mcp"), TransportMode = HttpTransportMode.StreamableHttp, Name = "junction" }),
            options);
        if (revision != null && client.NegotiatedProtocolVersion != revision)
            throw new InvalidOperationException($"asked for MCP {revision}, Junction served {client.NegotiatedProtocolVersion}");
        return client;
    }

    /// <summary>Waits until tools/list names `tool` (the bridge lists a plugin's tools once it has handshaken).</summary>
    public static async Task<IList<McpClientTool>> WaitForToolAsync(McpClient client, string tool, TimeSpan? within = null)
    {
        var deadline = DateTime.UtcNow + (within ?? TimeSpan.FromSeconds(15));
        while (true)
        {
            var tools = await client.ListToolsAsync();
            if (tools.Any(t => t.Name == tool)) return tools;
            if (DateTime.UtcNow > deadline) throw new TimeoutException($"'{tool}' never appeared; listed: {string.Join(", ", tools.Select(t => t.Name))}");
            await Task.Delay(100);
        }
    }
}
