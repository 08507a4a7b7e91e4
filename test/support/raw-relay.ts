/** `junction connect` driven line by line, as an agent that does not wait for answers would drive it. */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CLI_SOURCE_FOR_TESTS, isolatedEnv } from './cli.js';

export function rawRelay(port: number) {
  const child = spawn(process.execPath, [...CLI_SOURCE_FOR_TESTS, 'connect', '--port', String(port), 'log-level=warn'], { env: isolatedEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  const answers: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    answers.push(JSON.parse(line) as Record<string, unknown>);
    for (const wake of waiters.splice(0)) wake();
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    write: (...lines: string[]) => child.stdin.write(lines.map((l) => `${l}\n`).join('')),
    async answer(match: (a: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
      for (;;) {
        const found = answers.find(match);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
    async end() {
      child.stdin.end();
      return { code: await exited, stderr };
    },
  };
}
