/** Runs one of the MCP SDK's own example clients against a URL, as a third-party client would be run. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The path of an example client shipped in @modelcontextprotocol/sdk (`examples/client/<name>.js`). */
export const sdkExampleClient = (name: string) => fileURLToPath(import.meta.resolve(`@modelcontextprotocol/sdk/examples/client/${name}.js`));

export function runExample(script: string, url: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [script, url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}
