using ModelContextProtocol.Client;
using ModelContextProtocol.Protocol;

namespace Junction.Interop.Tests;

/// <summary>The official C# MCP SDK as an agent, over streamable HTTP at /mcp.</summary>
public static class Agent
{
    public static Task<McpClient> ConnectAsync(Uri baseUrl, McpClientOptions? options = null) =>
        McpClient.CreateAsync(
            new HttpClientTransport(new HttpClientTransportOptions { Endpoint = new Uri(baseUrl, "/mcp"), TransportMode = HttpTransportMode.StreamableHttp, Name = "junction" }),
            options ?? new McpClientOptions { ClientInfo = new Implementation { Name = "dotnet-interop-agent", Version = "1.0.0" } });

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
