using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization;

namespace Junction.Interop.Tests;

/// <summary>
/// The hub payload settings McpPlugin 8.x uses (McpPlugin.Common SignalR_JsonConfiguration, copied from
/// ReflectorNet's serializer): names as declared (PascalCase), enums written as names, nulls omitted,
/// reading case-insensitive.
/// </summary>
public static class McpPluginJson
{
    public static void Configure(JsonSerializerOptions options)
    {
        options.PropertyNamingPolicy = null;
        options.DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull;
        options.PropertyNameCaseInsensitive = true;
        options.WriteIndented = false;
        options.Converters.Add(new JsonStringEnumConverter());
    }
}

// The DTOs below mirror McpPlugin.Common/src/Data at aefc899: property names and types as declared there.

public enum ResponseStatus { Error, Success, Processing }
public enum ResponseErrorKind { None, BadRequest, NotFound, Conflict, Timeout, Unavailable, Internal }

public sealed class RequestVersionHandshake
{
    [JsonPropertyName("requestId")] public string RequestId { get; set; } = Guid.NewGuid().ToString();
    [JsonPropertyName("apiVersion")] public string ApiVersion { get; set; } = "2.0.0";
    [JsonPropertyName("pluginVersion")] public string PluginVersion { get; set; } = "8.0.0";
    [JsonPropertyName("environment")] public string Environment { get; set; } = "Junction.Interop.Tests";
    /// <summary>Junction's MCP extension 1; McpPlugin itself never sends it.</summary>
    [JsonPropertyName("extensions")] public JsonObject? Extensions { get; set; }
}

public sealed class VersionHandshakeResponse
{
    [JsonPropertyName("apiVersion")] public string ApiVersion { get; set; } = "";
    [JsonPropertyName("serverVersion")] public string ServerVersion { get; set; } = "";
    [JsonPropertyName("compatible")] public bool Compatible { get; set; }
    [JsonPropertyName("message")] public string? Message { get; set; }
}

public class ResponseData
{
    public string RequestID { get; set; } = "";
    public ResponseStatus Status { get; set; }
    public string? Message { get; set; }
    public ResponseErrorKind ErrorKind { get; set; }
    public int? HttpStatusCode { get; set; }
}

public sealed class ResponseData<T> : ResponseData
{
    public T? Value { get; set; }
}


public sealed class RequestListTool { public string RequestID { get; set; } = ""; }

public sealed class RequestToolsUpdated { public string RequestId { get; set; } = ""; }

public sealed class ResponseListTool
{
    public string Name { get; set; } = "";
    public bool Enabled { get; set; } = true;
    public string? Title { get; set; }
    public string? Description { get; set; }
    public JsonNode InputSchema { get; set; } = new JsonObject { ["type"] = "object", ["additionalProperties"] = false };
    public JsonNode? OutputSchema { get; set; }
    public bool? ReadOnlyHint { get; set; }
}

public sealed class RequestCallTool
{
    public string RequestID { get; set; } = "";
    public string Name { get; set; } = "";
    public Dictionary<string, JsonElement>? Arguments { get; set; }
}

public sealed class ContentBlock
{
    public string Type { get; set; } = "text";
    public string? Text { get; set; }
    public string? Data { get; set; }
    public string? MimeType { get; set; }
}

public sealed class ResponseCallTool
{
    public string RequestID { get; set; } = "";
    public ResponseStatus Status { get; set; } = ResponseStatus.Error;
    public List<ContentBlock> Content { get; set; } = new();
    public JsonNode? StructuredContent { get; set; }
    public ResponseErrorKind ErrorKind { get; set; }
    public int? HttpStatusCode { get; set; }
}

public sealed class RequestToolCompletedData
{
    public string RequestId { get; set; } = "";
    public ResponseCallTool Result { get; set; } = new();
}

public sealed class ResponseListPrompts { public List<JsonNode> Prompts { get; set; } = new(); }

/// <summary>Junction extension: progress of a running call, keyed by its RequestID.</summary>
public sealed class NotifyToolProgress
{
    public string RequestId { get; set; } = "";
    public double Progress { get; set; }
    public double? Total { get; set; }
    public string? Message { get; set; }
}

/// <summary>Junction MCP extension 1: ask the user of the agent that made a running call.</summary>
public sealed class RequestElicitation
{
    public string RequestId { get; set; } = "";
    public string ElicitationId { get; set; } = Guid.NewGuid().ToString();
    public string Message { get; set; } = "";
    public JsonObject RequestedSchema { get; set; } = new();
}

public sealed class ResponseElicitation
{
    public string Action { get; set; } = "";
    public Dictionary<string, JsonElement>? Content { get; set; }
}

public static class Replies
{
    public static ResponseData<ResponseCallTool> Pack(string requestId, ResponseCallTool value) => new()
    {
        RequestID = requestId,
        Status = value.Status,
        // McpPlugin's Pack: Message is the first text block.
        Message = value.Content.FirstOrDefault(c => c.Type == "text" && !string.IsNullOrEmpty(c.Text))?.Text,
        ErrorKind = value.ErrorKind,
        HttpStatusCode = value.HttpStatusCode,
        Value = value,
    };

    public static ResponseData<ResponseCallTool> Text(RequestCallTool request, string text, ResponseStatus status = ResponseStatus.Success, ResponseErrorKind kind = ResponseErrorKind.None) =>
        Pack(request.RequestID, new ResponseCallTool
        {
            RequestID = request.RequestID,
            Status = status,
            ErrorKind = kind,
            Content = new() { new ContentBlock { Type = "text", Text = text, MimeType = "text/plain" } },
        });

    public static ResponseData<T> Success<T>(string requestId, T value, string message) => new()
    {
        RequestID = requestId,
        Status = ResponseStatus.Success,
        Message = message,
        Value = value,
    };
}
