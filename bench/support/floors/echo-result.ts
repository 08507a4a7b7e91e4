/**
 * The answer every floor gives: the JSON-RPC result a tools/call of an echo tool returns. Floor 1 also
 * answers the other request shapes Junction serves, as Junction answers them: a 2026-07-28 request (its
 * `_meta` names a protocol version) with `resultType` and the server's `_meta`, and a body that is not
 * JSON-RPC (POST /api/tools/echo's arguments) with the bare result.
 */
export function echoResult(body: string): string {
  let request: { jsonrpc?: unknown; id?: unknown; params?: { arguments?: unknown; _meta?: Record<string, unknown> } };
  try {
    request = JSON.parse(body) as typeof request;
  } catch {
    return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  }
  if (request.jsonrpc === undefined) return JSON.stringify(toolResult(request));
  const args = request.params?.arguments ?? {};
  const result: Record<string, unknown> = toolResult(args);
  if (request.params?._meta?.['io.modelcontextprotocol/protocolVersion'] !== undefined) {
    result['resultType'] = 'complete';
    result['_meta'] = { 'io.modelcontextprotocol/serverInfo': { name: 'floor', version: '1.0.0' } };
  }
  return JSON.stringify({ jsonrpc: '2.0', id: request.id ?? null, result });
}

function toolResult(args: unknown): Record<string, unknown> {
  return { content: [{ type: 'text', text: JSON.stringify(args) }], structuredContent: args, isError: false };
}

/** Reads a whole request body as text. */
export function readBody(req: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
