using Xunit;

[assembly: CollectionBehavior(DisableTestParallelization = true)]

namespace Junction.Interop.Tests;

/// <summary>One Junction for a test class.</summary>
public class JunctionFixture : IAsyncLifetime
{
    public JunctionProcess Junction { get; private set; } = null!;

    /// <summary>Junction's defaults: its hub takes messages up to 128 MB, as McpPlugin.Server does.</summary>
    protected virtual string[] Settings => Array.Empty<string>();

    public async Task InitializeAsync() => Junction = await JunctionProcess.StartAsync(Settings);

    public async Task DisposeAsync() => await Junction.DisposeAsync();
}
