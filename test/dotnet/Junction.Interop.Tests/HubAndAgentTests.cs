using System.Net;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.SignalR.Client;
using ModelContextProtocol;
using ModelContextProtocol.Client;
using ModelContextProtocol.Protocol;
using Xunit;

namespace Junction.Interop.Tests;

/// <summary>
/// A .NET plugin on the SignalR client McpPlugin 8.x uses and the C# MCP SDK as the agent, through one
/// real Junction.
/// </summary>
public sealed class HubAndAgentTests : IClassFixture<JunctionFixture>
{
    readonly JunctionProcess _junction;

    public HubAndAgentTests(JunctionFixture fixture) => _junction = fixture.Junction;

    static string Arg(RequestCallTool request, string name) => request.Arguments != null && request.Arguments.TryGetValue(name, out var v) ? v.ToString() : "";

    [Fact]
    public async Task Handshake_publishes_the_plugins_tools_to_agents()
    {
        await using var plugin = new DotNetPlugin(_junction.BaseUrl)
            .Tool("scene-find", "Finds a GameObject.", (request, _) => Task.FromResult(Replies.Text(request, $"Found {Arg(request, "name")}.")));
        var handshake = await plugin.ConnectAsync();
        Assert.True(handshake.Compatible, handshake.Message);
        Assert.Equal("2.0.0", handshake.ApiVersion);

        await using var agent = await Agent.ConnectAsync(_junction.BaseUrl);
        var tools = await Agent.WaitForToolAsync(agent, "scene-find");
        Assert.Equal("Finds a GameObject.", tools.Single(t => t.Name == "scene-find").Description);
        var result = await agent.CallToolAsync("scene-find", new Dictionary<string, object?> { ["name"] = "Player" });
        Assert.NotEqual(true, result.IsError);
        Assert.Equal("Found Player.", Assert.IsType<TextContentBlock>(Assert.Single(result.Content)).Text);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(4)]
    [InlineData(16)]
    public async Task A_large_image_result_crosses_whole_and_unchanged(int megabytes)
    {
        var png = new byte[megabytes * 1024 * 1024];
        new Random(megabytes).NextBytes(png);
        var base64 = Convert.ToBase64String(png);
        var tool = $"screenshot-{megabytes}mb";
        await using var plugin = new DotNetPlugin(_junction.BaseUrl).Tool(tool, "Captures the game view.", (request, _) =>
            Task.FromResult(Replies.Pack(request.RequestID, new ResponseCallTool
            {
                RequestID = request.RequestID,
                Status = ResponseStatus.Success,
                Content = new()
                {
                    new ContentBlock { Type = "text", Text = "Game view captured.", MimeType = "text/plain" },
                    new ContentBlock { Type = "image", Data = base64, MimeType = "image/png" },
                },
            })));
        await plugin.ConnectAsync();
        await using var agent = await Agent.ConnectAsync(_junction.BaseUrl);
        await Agent.WaitForToolAsync(agent, tool);

        var result = await agent.CallToolAsync(tool, new Dictionary<string, object?>(), cancellationToken: new CancellationTokenSource(TimeSpan.FromSeconds(120)).Token);
        Assert.NotEqual(true, result.IsError);
        Assert.Equal(2, result.Content.Count);
        var image = Assert.IsType<ImageContentBlock>(result.Content[1]);
        Assert.Equal("image/png", image.MimeType);
        Assert.Equal(SHA256.HashData(png), SHA256.HashData(image.DecodedData.Span));
        Assert.Equal(HubConnectionState.Connected, plugin.Connection.State);
    }

    [Fact]
    public async Task Processing_then_NotifyToolRequestCompleted_answers_the_agent()
    {
        await using var plugin = new DotNetPlugin(_junction.BaseUrl).Tool("tests-run", "Runs the test suite.", (request, p) =>
        {
            _ = Task.Run(async () =>
            {
                await Task.Delay(500);
                var done = new ResponseCallTool
                {
                    RequestID = request.RequestID,
                    Status = ResponseStatus.Success,
                    Content = new() { new ContentBlock { Type = "text", Text = "All 412 tests passed.", MimeType = "text/plain" } },
                };
                var ack = await p.Connection.InvokeAsync<ResponseData>("NotifyToolRequestCompleted", new RequestToolCompletedData { RequestId = request.RequestID, Result = done });
                Assert.Equal(ResponseStatus.Success, ack.Status);
            });
            return Task.FromResult(Replies.Text(request, "Running 412 tests…", ResponseStatus.Processing));
        });
        await plugin.ConnectAsync();
        await using var agent = await Agent.ConnectAsync(_junction.BaseUrl);
        await Agent.WaitForToolAsync(agent, "tests-run");
        var result = await agent.CallToolAsync("tests-run");
        Assert.NotEqual(true, result.IsError);
        Assert.Equal("All 412 tests passed.", Assert.IsType<TextContentBlock>(Assert.Single(result.Content)).Text);
    }

    [Fact]
    public async Task Plugin_errors_reach_the_agent_as_structured_errors_and_api_statuses()
    {
        await using var plugin = new DotNetPlugin(_junction.BaseUrl)
            .Tool("ghost-find", "Fails with NotFound.", (request, _) => Task.FromResult(Replies.Text(request, "GameObject 'Ghost' not found.", ResponseStatus.Error, ResponseErrorKind.NotFound)))
            .Tool("legal-fail", "Fails with an explicit HttpStatusCode.", (request, _) =>
            {
                var reply = Replies.Text(request, "Unavailable for legal reasons.", ResponseStatus.Error, ResponseErrorKind.Conflict);
                reply.HttpStatusCode = 451;
                reply.Value!.HttpStatusCode = 451;
                return Task.FromResult(reply);
            });
        await plugin.ConnectAsync();
        await using var agent = await Agent.ConnectAsync(_junction.BaseUrl);
        await Agent.WaitForToolAsync(agent, "legal-fail");

        var notFound = await agent.CallToolAsync("ghost-find");
        Assert.True(notFound.IsError);
        var error = notFound.StructuredContent!.Value.GetProperty("error");
        Assert.Equal("ToolNotFound", error.GetProperty("code").GetString());
        Assert.Equal("GameObject 'Ghost' not found.", error.GetProperty("message").GetString());

        using var http = new HttpClient();
        var res = await http.PostAsync(new Uri(_junction.BaseUrl, "/api/tools/legal-fail"), new StringContent("{}", Encoding.UTF8, "application/json"));
        Assert.Equal((HttpStatusCode)451, res.StatusCode);
        using var body = JsonDocument.Parse(await res.Content.ReadAsStringAsync());
        Assert.Equal("Unavailable for legal reasons.", body.RootElement.GetProperty("error").GetProperty("message").GetString());

        // The agent's unknown tool: a JSON-RPC error naming ToolNotFound, the connection unharmed.
        var unknown = await Assert.ThrowsAsync<McpProtocolException>(() => agent.CallToolAsync("no-such-tool").AsTask());
        Assert.Equal(McpErrorCode.InvalidParams, unknown.ErrorCode);
        Assert.Equal(HubConnectionState.Connected, plugin.Connection.State);
    }

    [Fact]
    public async Task Progress_the_plugin_reports_reaches_the_agent()
    {
        await using var plugin = new DotNetPlugin(_junction.BaseUrl).Tool("lightmap-bake", "Bakes lightmaps.", async (request, p) =>
        {
            for (var pass = 1; pass <= 3; pass++)
            {
                var ack = await p.Connection.InvokeAsync<ResponseData>("NotifyToolProgress", new NotifyToolProgress { RequestId = request.RequestID, Progress = pass, Total = 3, Message = $"pass {pass}" });
                Assert.Equal(ResponseStatus.Success, ack.Status);
            }
            return Replies.Text(request, "Baked in 3 passes.");
        });
        await plugin.ConnectAsync();
        await using var agent = await Agent.ConnectAsync(_junction.BaseUrl);
        await Agent.WaitForToolAsync(agent, "lightmap-bake");

        var seen = new List<ProgressNotificationValue>();
        var progress = new SynchronousProgress(value => { lock (seen) seen.Add(value); });
        var result = await agent.CallToolAsync("lightmap-bake", new Dictionary<string, object?>(), progress);
        Assert.Equal("Baked in 3 passes.", Assert.IsType<TextContentBlock>(Assert.Single(result.Content)).Text);
        // The SDK hands notifications to the progress sink concurrently: wait for all three, in any order.
        for (var waited = 0; waited < 5000 && Count() < 3; waited += 50) await Task.Delay(50);
        lock (seen)
        {
            Assert.Equal(new[] { 1f, 2f, 3f }, seen.Select(s => s.Progress).Order().ToArray());
            Assert.All(seen, s => Assert.Equal(3f, s.Total));
            Assert.Equal("pass 3", seen.Single(s => s.Progress == 3f).Message);
        }

        int Count() { lock (seen) return seen.Count; }
    }

    [Fact]
    public async Task A_plugin_asks_the_agents_user_through_elicitation()
    {
        await using var plugin = new DotNetPlugin(_junction.BaseUrl)
        {
            Extensions = new JsonObject { ["version"] = 1, ["features"] = new JsonArray("elicitation") },
        }.Tool("scene-overwrite", "Overwrites the scene after asking.", async (request, p) =>
        {
            var schema = new JsonObject { ["type"] = "object", ["properties"] = new JsonObject { ["ok"] = new JsonObject { ["type"] = "boolean" } }, ["required"] = new JsonArray("ok") };
            var answer = await p.Connection.InvokeAsync<ResponseData<ResponseElicitation>>("RequestElicitation", new RequestElicitation { RequestId = request.RequestID, Message = "Overwrite SampleScene?", RequestedSchema = schema });
            Assert.Equal(ResponseStatus.Success, answer.Status);
            var ok = answer.Value!.Content!["ok"].GetBoolean();
            return Replies.Text(request, $"{answer.Value.Action}: ok={ok}");
        });
        var handshake = await plugin.ConnectAsync();
        Assert.True(handshake.Compatible);

        string? asked = null;
        var options = new McpClientOptions
        {
            ClientInfo = new Implementation { Name = "dotnet-interop-agent", Version = "1.0.0" },
            Handlers = new McpClientHandlers
            {
                ElicitationHandler = (request, _) =>
                {
                    asked = request?.Message;
                    return ValueTask.FromResult(new ElicitResult { Action = "accept", Content = new Dictionary<string, JsonElement> { ["ok"] = JsonSerializer.SerializeToElement(true) } });
                },
            },
        };
        await using var agent = await Agent.ConnectAsync(_junction.BaseUrl, options);
        await Agent.WaitForToolAsync(agent, "scene-overwrite");
        var result = await agent.CallToolAsync("scene-overwrite");
        Assert.NotEqual(true, result.IsError);
        Assert.Equal("accept: ok=True", Assert.IsType<TextContentBlock>(Assert.Single(result.Content)).Text);
        Assert.Equal("Overwrite SampleScene?", asked);
    }

    /// <summary>Progress&lt;T&gt; would post each report to the thread pool; this one records it where the SDK delivers it.</summary>
    sealed class SynchronousProgress(Action<ProgressNotificationValue> report) : IProgress<ProgressNotificationValue>
    {
        public void Report(ProgressNotificationValue value) => report(value);
    }
}
