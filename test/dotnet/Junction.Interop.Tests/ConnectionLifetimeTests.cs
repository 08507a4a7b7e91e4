using Microsoft.AspNetCore.SignalR.Client;
using ModelContextProtocol.Protocol;
using Xunit;

namespace Junction.Interop.Tests;

/// <summary>Reconnects and keep-alive, as McpPlugin's HubConnection lives them.</summary>
public sealed class ConnectionLifetimeTests
{
    static readonly TimeSpan[] QuickRetries = { TimeSpan.FromMilliseconds(500), TimeSpan.FromSeconds(1), TimeSpan.FromSeconds(2), TimeSpan.FromSeconds(3), TimeSpan.FromSeconds(5), TimeSpan.FromSeconds(5) };

    static DotNetPlugin Echo(Uri baseUrl, TimeSpan? keepAlive = null, TimeSpan? serverTimeout = null) =>
        new DotNetPlugin(baseUrl, keepAlive, serverTimeout, QuickRetries)
            .Tool("console-echo", "Echoes its text.", (request, _) => Task.FromResult(Replies.Text(request, request.Arguments?["text"].GetString() ?? "")));

    static async Task<string> CallEchoAsync(Uri baseUrl, string text)
    {
        await using var agent = await Agent.ConnectAsync(baseUrl);
        await Agent.WaitForToolAsync(agent, "console-echo", TimeSpan.FromSeconds(30));
        var result = await agent.CallToolAsync("console-echo", new Dictionary<string, object?> { ["text"] = text });
        return Assert.IsType<TextContentBlock>(Assert.Single(result.Content)).Text;
    }

    static async Task Until(Func<bool> condition, TimeSpan within, string what)
    {
        var deadline = DateTime.UtcNow + within;
        while (!condition())
        {
            if (DateTime.UtcNow > deadline) throw new TimeoutException(what);
            await Task.Delay(100);
        }
    }

    [Fact]
    public async Task The_plugin_reconnects_to_a_restarted_Junction_and_serves_again()
    {
        var first = await JunctionProcess.StartAsync();
        var port = first.Port;
        var stateDir = first.StateDir;
        await using var plugin = Echo(first.BaseUrl);
        await plugin.ConnectAsync();
        Assert.Equal("before", await CallEchoAsync(first.BaseUrl, "before"));

        var reconnecting = 0;
        plugin.Connection.Reconnecting += _ => { Interlocked.Increment(ref reconnecting); return Task.CompletedTask; };
        await first.DisposeAsync();
        await Until(() => reconnecting > 0 || plugin.Connection.State != HubConnectionState.Connected, TimeSpan.FromSeconds(20), "the plugin noticed the restart");

        await using var second = await JunctionProcess.StartAsync(port: port, stateDir: stateDir);
        await Until(() => plugin.Handshakes >= 2, TimeSpan.FromSeconds(60), "the plugin handshook with the new Junction");
        Assert.Equal(HubConnectionState.Connected, plugin.Connection.State);
        Assert.Equal("after", await CallEchoAsync(second.BaseUrl, "after"));
    }

    /// <summary>
    /// McpPlugin pings every 30 s against a 5 min client timeout; here 1 s against 3 s, with Junction's
    /// keep-alive at 0.5 s so the client's own 3 s server timeout is never near.
    /// </summary>
    /// <summary>A Junction pinging every 0.5 s that cuts a plugin silent for 3 s, and a plugin on it pinging every `keepAlive`.</summary>
    static async Task<(JunctionProcess Junction, DotNetPlugin Plugin, Func<int> Lost)> KeepAliveSetupAsync(TimeSpan keepAlive)
    {
        var junction = await JunctionProcess.StartAsync(new[] { "keep-alive-interval=500", "client-timeout=3000" });
        var plugin = Echo(junction.BaseUrl, keepAlive: keepAlive, serverTimeout: keepAlive * 3);
        var lost = 0;
        plugin.Connection.Reconnecting += _ => { Interlocked.Increment(ref lost); return Task.CompletedTask; };
        plugin.Connection.Closed += _ => { Interlocked.Increment(ref lost); return Task.CompletedTask; };
        await plugin.ConnectAsync();
        return (junction, plugin, () => Volatile.Read(ref lost));
    }

    [Fact]
    public async Task An_idle_plugin_that_pings_within_the_client_timeout_stays_connected()
    {
        var (junction, plugin, lost) = await KeepAliveSetupAsync(TimeSpan.FromSeconds(1));
        await using (junction)
        await using (plugin)
        {
            await Task.Delay(TimeSpan.FromSeconds(8));
            Assert.Equal(0, lost());
            Assert.Equal(1, plugin.Handshakes);
            Assert.Equal("still here", await CallEchoAsync(junction.BaseUrl, "still here"));
        }
    }

    /// <summary>The check above can fail: a plugin silent for longer than client-timeout is cut.</summary>
    [Fact]
    public async Task A_plugin_silent_past_the_client_timeout_is_disconnected()
    {
        var (junction, plugin, lost) = await KeepAliveSetupAsync(TimeSpan.FromSeconds(30));
        await using (junction)
        await using (plugin)
            await Until(() => lost() > 0, TimeSpan.FromSeconds(15), "Junction closed the silent connection");
    }
}
