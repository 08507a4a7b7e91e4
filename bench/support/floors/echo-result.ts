/** The answer every floor gives: the JSON-RPC result a tools/call of an echo tool returns. */
export function echoResult(body: string): string {
  let id: unknown = null;
  let args: unknown = {};
  try {
    const request = JSON.parse(body) as { id?: unknown; params?: { arguments?: unknown } };
    id = request.id ?? null;
    args = request.params?.arguments ?? {};
  } catch {
    return JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  }
  return JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(args) }], structuredContent: args, isError: false } });
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
