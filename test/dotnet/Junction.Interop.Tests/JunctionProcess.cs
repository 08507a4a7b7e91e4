using System.Diagnostics;
using System.Text.RegularExpressions;

namespace Junction.Interop.Tests;

/// <summary>
/// A real Junction: `node --import tsx src-main/app/cli.ts serve` from this repository, on an ephemeral
/// loopback port (or a given one, to restart it where a plugin expects it), in its own state directory.
/// </summary>
public sealed partial class JunctionProcess : IAsyncDisposable
{
    readonly Process _process;
    readonly List<string> _output = new();

    public Uri BaseUrl { get; }
    public int Port => BaseUrl.Port;
    public string StateDir { get; }
    public IReadOnlyList<string> Output { get { lock (_output) return _output.ToList(); } }

    JunctionProcess(Process process, Uri baseUrl, string stateDir, List<string> output)
    {
        _process = process;
        BaseUrl = baseUrl;
        StateDir = stateDir;
        _output = output;
    }

    public static string RepoRoot { get; } = FindRepoRoot();

    static string FindRepoRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir != null; dir = dir.Parent)
            if (File.Exists(Path.Combine(dir.FullName, "package.json")) && Directory.Exists(Path.Combine(dir.FullName, "src-main")))
                return dir.FullName;
        throw new InvalidOperationException($"No Junction checkout above {AppContext.BaseDirectory}.");
    }

    [GeneratedRegex(@"hub\s+(http://127\.0\.0\.1:\d+)/hub/mcp-server")]
    private static partial Regex HubLine();

    public static async Task<JunctionProcess> StartAsync(IEnumerable<string>? settings = null, int port = 0, string? stateDir = null)
    {
        stateDir ??= Directory.CreateTempSubdirectory("junction-dotnet-").FullName;
        var start = new ProcessStartInfo("node")
        {
            WorkingDirectory = RepoRoot,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var arg in new[] { "--import", "tsx", "src-main/app/cli.ts", "serve", $"port={port}", "demo=false", $"state-dir={stateDir}", "log-level=warn" })
            start.ArgumentList.Add(arg);
        foreach (var arg in settings ?? Array.Empty<string>()) start.ArgumentList.Add(arg);

        var process = Process.Start(start) ?? throw new InvalidOperationException("node did not start");
        var output = new List<string>();
        var ready = new TaskCompletionSource<Uri>(TaskCreationOptions.RunContinuationsAsynchronously);
        void Read(string? line)
        {
            if (line == null) return;
            lock (output) output.Add(line);
            var match = HubLine().Match(line);
            if (match.Success) ready.TrySetResult(new Uri(match.Groups[1].Value));
        }
        process.OutputDataReceived += (_, e) => Read(e.Data);
        process.ErrorDataReceived += (_, e) => Read(e.Data);
        process.Exited += (_, _) => ready.TrySetException(new InvalidOperationException("Junction exited before it served:\n" + string.Join("\n", output)));
        process.EnableRaisingEvents = true;
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        var started = await Task.WhenAny(ready.Task, Task.Delay(TimeSpan.FromSeconds(90)));
        if (started != ready.Task)
        {
            process.Kill(entireProcessTree: true);
            throw new TimeoutException("Junction did not print its hub URL within 90 s:\n" + string.Join("\n", output));
        }
        return new JunctionProcess(process, await ready.Task, stateDir, output);
    }

    /// <summary>Stops it as an operator's Ctrl+C would (SIGTERM), then waits for the process to end.</summary>
    public async Task StopAsync()
    {
        if (_process.HasExited) return;
        using (var kill = Process.Start("kill", new[] { "-TERM", _process.Id.ToString() })) await kill!.WaitForExitAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(20));
        try { await _process.WaitForExitAsync(timeout.Token); }
        catch (OperationCanceledException) { _process.Kill(entireProcessTree: true); await _process.WaitForExitAsync(); }
    }

    public async ValueTask DisposeAsync()
    {
        await StopAsync();
        _process.Dispose();
    }
}
