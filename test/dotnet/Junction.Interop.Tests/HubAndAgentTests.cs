using System.Diagnostics;
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

    [Theory]
    [MemberData(nameof(Agent.Revisions), MemberType = typeof(Agent))]
    public async Task Handshake_publishes_the_plugins_tools_to_agents(string revision)
    {
        await using var plugin = new DotNetPlugin(_junction.BaseUrl)
            .Tool(Agent.Named("scene-find", revision), "Finds a GameObject.", (request, _) => Task.FromResult(Replies.Text(request, $"Found {Arg(request, "name")}.")));
        var handshake = await plugin.ConnectAsync();
        Assert.True(handshake.Compatible, handshake.Message);
        Assert.Equal("2.0.0", handshake.ApiVersion);

        await using var agent = await Agent.ConnectAsync(_junction.BaseUrl, revision);
        var tools = await Agent.WaitForToolAsync(agent, Agent.Named("scene-find", revision));
        Assert.Equal("Finds a GameObject.", tools.Single(t => t.Name == Agent.Named("scene-find", revision)).Description);
        var result = await agent.CallToolAsync(Agent.Named("scene-find", revision), new Dictionary<string, object?> { ["name"] = "Player" });
        Assert.NotEqual(true, result.IsError);
        Assert.Equal("Found Player.", Assert.IsType<TextContentBlock>(Assert.Single(result.Content)).Text);
    }

    [Theory]
    [InlineData(1, "2026-07-28")]
    [InlineData(4, "2026-07-28")]
    [InlineData(16, "2026-07-28")]
    [InlineData(1, "2025-11-25")]
    [InlineData(16, "2025-11-25")]
    public async Task A_large_image_result_crosses_whole_and_unchanged(int megabytes, string revision)
    {
        var png = new byte[megabytes * 1024 * 1024];
        new Random(megabytes).NextBytes(png);
        var base64 = Convert.ToBase64String(png);
        var tool = Agent.Named($"screenshot-{megabytes}mb", revision);
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
        await using var agent = await Agent.ConnectAsync(_junction.BaseUrl, revision);
        await Agent.WaitForToolAsync(agent, tool);

        var result = await agent.CallToolAsync(tool, new Dictionary<string, object?>(), cancellationToken: new CancellationTokenSource(TimeSpan.FromSeconds(120)).Token);
        Assert.NotEqual(true, result.IsError);
        Assert.Equal(2, result.Content.Count);
        var image = Assert.IsType<ImageContentBlock>(result.Content[1]);
        Assert.Equal("image/png", image.MimeType);
        Assert.Equal(SHA256.HashData(png), SHA256.HashData(image.DecodedData.Span));
        Assert.Equal(HubConnectionState.Connected, plugin.Connection.State);
    }

    /// <summary>
    /// Junction sends a long argument to the plugin as WebSocket fragments of one message, each long
    /// string as its own bytes; the .NET SignalR client must read them as the one invocation they are.
    /// </summary>
    [Theory]
    [InlineData(1, "2026-07-28")]
    [InlineData(16, "2026-07-28")]
    [InlineData(16, "2025-11-25")]
    public async Task A_large_argument_reaches_the_plugin_whole(int megabytes, string revision)
    {
        var bytes = new byte[megabytes * 1024 * 1024 / 4 * 3];
        new Random(megabytes).NextBytes(bytes);
        var base64 = Convert.ToBase64String(bytes);
        var tool = Agent.Named($"texture-import-{megabytes}mb", revision);
        await using var plugin = new DotNetPlugin(_junction.BaseUrl).Tool(tool, "Imports a texture.", (request, _) =>
            Task.FromResult(Replies.Text(request, $"{Arg(request, "name")} {Convert.ToHexString(SHA256.HashData(Convert.FromBase64String(Arg(request, "data"))))}")));
        await plugin.ConnectAsync();
        await using var agent = await Agent.ConnectAsync(_junction.BaseUrl, revision);
        await Agent.WaitForToolAsync(agent, tool);

        var result = await agent.CallToolAsync(tool, new Dictionary<string, object?> { ["name"] = "Grass.png", ["data"] = base64 }, cancellationToken: new CancellationTokenSource(TimeSpan.FromSeconds(120)).Token);
        Assert.NotEqual(true, result.IsError);
        Assert.Equal($"Grass.png {Convert.ToHexString(SHA256.HashData(bytes))}", Assert.IsType<TextContentBlock>(Assert.Single(result.Content)).Text);
        Assert.Equal(HubConnectionState.Connected, plugin.Connection.State);
    }

    [Theory]
    [MemberData(nameof(Agent.Revisions), MemberType = typeof(Agent))]
    public async Task Processing_then_NotifyToolRequestCompleted_answers_the_agent(string revision)
    {
        // McpPlugin has no progress message: an agent that asked for progress hears the Processing message
        // from Junction meanwhile. The plugin completes only once the agent heard it (or 5 s passed), as the
        // C# SDK may deliver a notice after the response it preceded (see the progress test below).
        var heard = new TaskCompletionSource<ProgressNotificationValue>(TaskCreationOptions.RunContinuationsAsynchronously);
        var progress = new SynchronousProgress(value => heard.TrySetResult(value));
        await using var plugin = new DotNetPlugin(_junction.BaseUrl).Tool(Agent.Named("tests-run", revision), "Runs the test suite.", (request, p) =>
        {
            _ = Task.Run(async () =>
            {
                await Task.WhenAny(heard.Task, Task.Delay(TimeSpan.FromSeconds(5)));
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
        await using var agent = await Agent.ConnectAsync(_junction.BaseUrl, revision);
        await Agent.WaitForToolAsync(agent, Agent.Named("tests-run", revision));
        var result = await agent.CallToolAsync(Agent.Named("tests-run", revision), new Dictionary<string, object?>(), progress);
        Assert.NotEqual(true, result.IsError);
        Assert.Equal("All 412 tests passed.", Assert.IsType<TextContentBlock>(Assert.Single(result.Content)).Text);
        Assert.True(heard.Task.IsCompleted, "the agent heard no progress while the plugin was Processing");
        var notice = await heard.Task;
        Assert.Equal("Running 412 tests…", notice.Message);
        Assert.Null(notice.Total);
    }

    [Theory]
    [MemberData(nameof(Agent.Revisions), MemberType = typeof(Agent))]
    public async Task The_agents_trace_context_reaches_the_plugin_which_McpPlugins_DTO_still_reads(string revision)
    {
        // The C# SDK writes its request activity into params._meta.traceparent (Diagnostics.InjectActivityContext)
        // whenever its ActivitySource has a listener, as an OpenTelemetry-instrumented agent has.
        using var tests = new ActivitySource("Junction.Interop.Tests");
        using var listener = new ActivityListener
        {
            ShouldListenTo = source => source.Name is "Experimental.ModelContextProtocol" or "Junction.Interop.Tests",
            Sample = (ref ActivityCreationOptions<ActivityContext> _) => ActivitySamplingResult.AllDataAndRecorded,
        };
        ActivitySource.AddActivityListener(listener);
        var tool = Agent.Named("trace-find", revision);
        await using var plugin = new DotNetPlugin(_junction.BaseUrl)
            .Tool(tool, "Finds a GameObject.", (request, _) => Task.FromResult(Replies.Text(request, $"Found {Arg(request, "name")}.")));
        await plugin.ConnectAsync();
        await using var agent = await Agent.ConnectAsync(_junction.BaseUrl, revision);
        await Agent.WaitForToolAsync(agent, tool);

        using var outer = tests.StartActivity($"agent turn {revision}")!;
        var result = await agent.CallToolAsync(tool, new Dictionary<string, object?> { ["name"] = "Player" });
        Assert.NotEqual(true, result.IsError);
        Assert.Equal("Found Player.", Assert.IsType<TextContentBlock>(Assert.Single(result.Content)).Text);
        var payload = plugin.CallPayloads.Single(p => p.GetProperty("Name").GetString() == tool);
        var traceparent = payload.GetProperty("Traceparent").GetString()!;
        Assert.Matches("^00-[0-9a-f]{32}-[0-9a-f]{16}-01$", traceparent);
        Assert.Equal(outer.TraceId.ToHexString(), traceparent.Split('-')[1]);
    }

    [Theory]
    [MemberData(nameof(Agent.Revisions), MemberType = typeof(Agent))]
    public async Task Plugin_errors_reach_the_agent_as_structured_errors_and_api_statuses(string revision)
    {
        await using var plugin = new DotNetPlugin(_junction.BaseUrl)
            .Tool(Agent.Named("ghost-find", revision), "Fails with NotFound.", (request, _) => Task.FromResult(Replies.Text(request, "GameObject 'Ghost' not found.", ResponseStatus.Error, ResponseErrorKind.NotFound)))
            .Tool(Agent.Named("legal-fail", revision), "Fails with an explicit HttpStatusCode.", (request, _) =>
            {
                var reply = Replies.Text(request, "Unavailable for legal reasons.", ResponseStatus.Error, ResponseErrorKind.Conflict);
                reply.HttpStatusCode = 451;
                reply.Value!.HttpStatusCode = 451;
                return Task.FromResult(reply);
            });
        await plugin.ConnectAsync();
        await using var agent = await Agent.ConnectAsync(_junction.BaseUrl, revision);
        await Agent.WaitForToolAsync(agent, Agent.Named("legal-fail", revision));

        var notFound = await agent.CallToolAsync(Agent.Named("ghost-find", revision));
        Assert.True(notFound.IsError);
        var error = notFound.StructuredContent!.Value.GetProperty("error");
        Assert.Equal("ToolNotFound", error.GetProperty("code").GetString());
        Assert.Equal("GameObject 'Ghost' not found.", error.GetProperty("message").GetString());

        using var http = new HttpClient();
        var res = await http.PostAsync(new Uri(_junction.BaseUrl, $"/api/tools/{Agent.Named("legal-fail", revision)}"), new StringContent("{}", Encoding.UTF8, "application/json"));
        Assert.Equal((HttpStatusCode)451, res.StatusCode);
        using var body = JsonDocument.Parse(await res.Content.ReadAsStringAsync());
        Assert.Equal("Unavailable for legal reasons.", body.RootElement.GetProperty("error").GetProperty("message").GetString());

        // The agent's unknown tool: a JSON-RPC error naming ToolNotFound, the connection unharmed.
        var unknown = await Assert.ThrowsAsync<McpProtocolException>(() => agent.CallToolAsync("no-such-tool").AsTask());
        Assert.Equal(McpErrorCode.InvalidParams, unknown.ErrorCode);
        Assert.Equal(HubConnectionState.Connected, plugin.Connection.State);
    }

    [Theory]
    [MemberData(nameof(Agent.Revisions), MemberType = typeof(Agent))]
    public async Task Progress_the_plugin_reports_reaches_the_agent(string revision)
    {
        // The C# SDK dispatches every incoming message on the thread pool, so a progress notice that arrives
        // just before the call's response can reach the sink after CallToolAsync has returned and removed it
        // (McpSessionHandler.ProcessMessagesCoreAsync, fire and forget). The plugin therefore answers only once
        // the agent has seen all three notices: what is asserted is that Junction delivers each one while the
        // call is running, and a lost notice fails the test by the plugin's wait running out.
        var seen = new List<ProgressNotificationValue>();
        var allSeen = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var progress = new SynchronousProgress(value =>
        {
            lock (seen)
            {
                seen.Add(value);
                if (seen.Count == 3) allSeen.TrySetResult();
            }
        });
        await using var plugin = new DotNetPlugin(_junction.BaseUrl).Tool(Agent.Named("lightmap-bake", revision), "Bakes lightmaps.", async (request, p) =>
        {
            for (var pass = 1; pass <= 3; pass++)
            {
                var ack = await p.Connection.InvokeAsync<ResponseData>("NotifyToolProgress", new NotifyToolProgress { RequestId = request.RequestID, Progress = pass, Total = 3, Message = $"pass {pass}" });
                Assert.Equal(ResponseStatus.Success, ack.Status);
            }
            // Shorter than plugin-timeout, so a lost notice reads as such rather than as a timeout.
            var delivered = await Task.WhenAny(allSeen.Task, Task.Delay(TimeSpan.FromSeconds(5))) == allSeen.Task;
            return Replies.Text(request, delivered ? "Baked in 3 passes." : "The agent did not see all three passes.");
        });
        await plugin.ConnectAsync();
        await using var agent = await Agent.ConnectAsync(_junction.BaseUrl, revision);
        await Agent.WaitForToolAsync(agent, Agent.Named("lightmap-bake", revision));

        var result = await agent.CallToolAsync(Agent.Named("lightmap-bake", revision), new Dictionary<string, object?>(), progress);
        Assert.Equal("Baked in 3 passes.", Assert.IsType<TextContentBlock>(Assert.Single(result.Content)).Text);
        lock (seen)
        {
            Assert.Equal(new[] { 1f, 2f, 3f }, seen.Select(s => s.Progress).Order().ToArray());
            Assert.All(seen, s => Assert.Equal(3f, s.Total));
            Assert.Equal("pass 3", seen.Single(s => s.Progress == 3f).Message);
        }
    }

    [Theory]
    [MemberData(nameof(Agent.Revisions), MemberType = typeof(Agent))]
    public async Task A_plugin_asks_the_agents_user_through_elicitation(string revision)
    {
        await using var plugin = new DotNetPlugin(_junction.BaseUrl)
        {
            Extensions = new JsonObject { ["version"] = 1, ["features"] = new JsonArray("elicitation") },
        }.Tool(Agent.Named("scene-overwrite", revision), "Overwrites the scene after asking.", async (request, p) =>
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
        var handlers = new McpClientHandlers
        {
            ElicitationHandler = (request, _) =>
            {
                asked = request?.Message;
                return ValueTask.FromResult(new ElicitResult { Action = "accept", Content = new Dictionary<string, JsonElement> { ["ok"] = JsonSerializer.SerializeToElement(true) } });
            },
        };
        await using var agent = await Agent.ConnectAsync(_junction.BaseUrl, revision, handlers);
        await Agent.WaitForToolAsync(agent, Agent.Named("scene-overwrite", revision));
        var result = await agent.CallToolAsync(Agent.Named("scene-overwrite", revision));
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
