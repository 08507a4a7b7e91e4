using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Http.Connections;
using Microsoft.AspNetCore.SignalR.Client;
using Microsoft.Extensions.DependencyInjection;

namespace Junction.Interop.Tests;

/// <summary>
/// A plugin as McpPlugin 8.x connects one (HubConnectionProvider, McpManagerClientHub): the connect-URL
/// query of ConnectionInstanceMetadata, negotiation not skipped, the JSON protocol with McpPlugin's
/// payload settings, keep-alive and server timeout, a handler for each client method it serves, and on
/// every (re)connection the version handshake followed by NotifyAboutUpdatedTools.
/// </summary>
public sealed class DotNetPlugin : IAsyncDisposable
{
    public delegate Task<ResponseData<ResponseCallTool>> ToolHandler(RequestCallTool request, DotNetPlugin plugin);

    readonly Dictionary<string, (ResponseListTool Descriptor, ToolHandler Handler)> _tools = new();
    int _handshakes;

    public HubConnection Connection { get; }
    public JsonObject? Extensions { get; init; }
    public int Handshakes => _handshakes;
    /// <summary>Every RunCallTool payload as it arrived, oldest first.</summary>
    public System.Collections.Concurrent.ConcurrentQueue<JsonElement> CallPayloads { get; } = new();
    public event Action? Handshaken;

    public DotNetPlugin(Uri baseUrl, TimeSpan? keepAlive = null, TimeSpan? serverTimeout = null, TimeSpan[]? reconnectDelays = null, string instanceId = "6f1c2b7e-0000-4d0e-9a51-00000000a001")
    {
        var query = $"instance_id={instanceId}&engine=Unity&project_name=SpaceShooter&project_path_hash=00628f5329db5eccf05b54545898ab0a24d2cac0419ca440086f68ac6d5e38e7&machine_name=DEV-PC";
        Connection = new HubConnectionBuilder()
            .WithUrl(new Uri(baseUrl, $"/hub/mcp-server?{query}"), HttpTransportType.WebSockets | HttpTransportType.ServerSentEvents | HttpTransportType.LongPolling)
            .AddJsonProtocol(options => McpPluginJson.Configure(options.PayloadSerializerOptions))
            // McpPlugin: a fixed 10 s retry, at most 3 times; tests pass shorter delays.
            .WithAutomaticReconnect(reconnectDelays ?? new[] { TimeSpan.FromSeconds(10), TimeSpan.FromSeconds(10), TimeSpan.FromSeconds(10) })
            .Build();
        Connection.KeepAliveInterval = keepAlive ?? TimeSpan.FromSeconds(30);
        Connection.ServerTimeout = serverTimeout ?? TimeSpan.FromMinutes(5);

        Connection.On<RequestListTool, ResponseData<ResponseListTool[]>>("RunListTool", request =>
            Replies.Success(request.RequestID, _tools.Values.Select(t => t.Descriptor).ToArray(), "List Tool execution completed."));
        // Read as the SignalR client reads a typed parameter (the payload options), keeping the payload as sent
        // so a test can see what Junction put on the wire beside what McpPlugin's DTO takes from it.
        var payloadOptions = new JsonSerializerOptions();
        McpPluginJson.Configure(payloadOptions);
        Connection.On<JsonElement, ResponseData<ResponseCallTool>>("RunCallTool", payload =>
        {
            var request = payload.Deserialize<RequestCallTool>(payloadOptions)!;
            CallPayloads.Enqueue(payload.Clone());
            return _tools.TryGetValue(request.Name, out var tool)
                ? tool.Handler(request, this)
                : Task.FromResult(new ResponseData<ResponseCallTool> { RequestID = request.RequestID, Status = ResponseStatus.Error, Message = $"Tool with Name '{request.Name}' not found.", ErrorKind = ResponseErrorKind.NotFound });
        });
        Connection.On<RequestListTool, ResponseData<ResponseListPrompts>>("RunListPrompts", request =>
            Replies.Success(request.RequestID, new ResponseListPrompts(), "List Prompt execution completed."));
        Connection.On<RequestListTool, ResponseData<JsonNode[]>>("RunListResources", request =>
            Replies.Success(request.RequestID, Array.Empty<JsonNode>(), "List Tool execution completed."));
        Connection.On<RequestListTool, ResponseData<JsonNode[]>>("RunResourceTemplates", request =>
            Replies.Success(request.RequestID, Array.Empty<JsonNode>(), "List Tool execution completed."));
        Connection.On<RequestListTool, ResponseData<ResponseListTool[]>>("RunListSystemTool", request =>
            Replies.Success(request.RequestID, Array.Empty<ResponseListTool>(), "List Tool execution completed."));
        Connection.On<JsonElement[]>("OnInitialClientData", _ => { });
        Connection.On<JsonElement, JsonElement[]>("OnMcpClientConnected", (_, _) => { });
        Connection.On<JsonElement, JsonElement[]>("OnMcpClientDisconnected", (_, _) => { });
        Connection.Reconnected += async _ => await AnnounceAsync();
    }

    public DotNetPlugin Tool(string name, string description, ToolHandler handler, JsonNode? inputSchema = null)
    {
        _tools[name] = (new ResponseListTool { Name = name, Title = description, Description = description, InputSchema = inputSchema ?? new JsonObject { ["type"] = "object", ["additionalProperties"] = true } }, handler);
        return this;
    }

    public async Task<VersionHandshakeResponse> ConnectAsync(CancellationToken cancellationToken = default)
    {
        await Connection.StartAsync(cancellationToken);
        return await AnnounceAsync(cancellationToken);
    }

    /// <summary>BaseHubConnector.OnConnectionEstablishedCore, then McpPlugin's tools-updated notification.</summary>
    async Task<VersionHandshakeResponse> AnnounceAsync(CancellationToken cancellationToken = default)
    {
        var response = await Connection.InvokeAsync<VersionHandshakeResponse>("PerformVersionHandshake", new RequestVersionHandshake { Extensions = Extensions }, cancellationToken);
        var updated = await Connection.InvokeAsync<ResponseData>("NotifyAboutUpdatedTools", new RequestToolsUpdated(), cancellationToken);
        if (updated.Status != ResponseStatus.Success) throw new InvalidOperationException($"NotifyAboutUpdatedTools answered {updated.Status}: {updated.Message}");
        Interlocked.Increment(ref _handshakes);
        Handshaken?.Invoke();
        return response;
    }

    public async ValueTask DisposeAsync() => await Connection.DisposeAsync();
}
