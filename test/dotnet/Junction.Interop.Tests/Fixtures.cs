using Xunit;

[assembly: CollectionBehavior(DisableTestParallelization = true)]

namespace Junction.Interop.Tests;

/// <summary>One Junction for a test class.</summary>
public class JunctionFixture : IAsyncLifetime
{
    public JunctionProcess Junction { get; private set; } = null!;

    /// <summary>
    /// McpPlugin.Server's MaximumReceiveMessageSize (128 MB), until it is Junction's default too.
    /// </summary>
    protected virtual string[] Settings => new[] { "max-frame-bytes=134217728" };

    public async Task InitializeAsync() => Junction = await JunctionProcess.StartAsync(Settings);

    public async Task DisposeAsync() => await Junction.DisposeAsync();
}
