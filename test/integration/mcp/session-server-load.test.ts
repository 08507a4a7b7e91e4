/**
 * The SDK's Server is loaded with the first session of the 2025 revisions, not at start
 * (src-main/mcp/server.ts): an initialize that arrives while it loads waits for it, and a load that
 * fails answers the initialize with a structured error, never leaving it unanswered; the next
 * initialize loads again.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { SessionServerModule } from '../../../src-main/mcp/sessions.js';
import { startMcpStack } from '../../support/mcp-stack.js';

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'load-probe', version: '1.0.0' } } });
const HEADERS = { accept: 'application/json, text/event-stream' };
const realLoad = (): Promise<SessionServerModule> => import('../../../src-main/mcp/session-server.js');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("loading the SDK's Server with the first session", () => {
  test('initializes that arrive while it loads wait for it and share the one load', async () => {
    let loads = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const stack = await startMcpStack([], {
      loadSessionServer: async () => {
        loads++;
        await held;
        return realLoad();
      },
    });
    try {
      let answered = 0;
      const initializes = [1, 2].map(() => stack.post('/mcp', INITIALIZE, HEADERS).finally(() => answered++));
      await sleep(200);
      assert.equal(answered, 0, 'no initialize is answered before the load completes');
      release();
      for (const reply of await Promise.all(initializes)) {
        assert.equal(reply.status, 200);
        assert.equal((reply.json['result'] as { serverInfo: { name: string } }).serverInfo.name, 'junction-test');
      }
      assert.equal(loads, 1);
      assert.equal(stack.factory.liveCount(), 2);
    } finally {
      await stack.close();
    }
  });

  test('a failed load answers with a structured InternalError, and the next initialize loads again', async () => {
    let loads = 0;
    const stack = await startMcpStack([], {
      loadSessionServer: () => (++loads === 1 ? Promise.reject(new Error('Cannot find module session-server.js')) : realLoad()),
    });
    try {
      const failed = await stack.post('/mcp', INITIALIZE, HEADERS);
      assert.equal(failed.status, 500);
      const error = failed.json['error'] as { code: number; message: string; data: { code: string; message: string } };
      assert.equal(error.code, -32603);
      assert.equal(error.data.code, 'InternalError');
      assert.equal(error.message, "The MCP SDK's server, which serves every MCP session, did not load: Cannot find module session-server.js");
      assert.equal(stack.factory.liveCount(), 0);
      assert.equal(stack.mcp.sessionCount(), 0);

      const opened = await stack.post('/mcp', INITIALIZE, HEADERS);
      assert.equal(opened.status, 200);
      assert.equal(loads, 2);
      assert.equal(stack.mcp.sessionCount(), 1);
    } finally {
      await stack.close();
    }
  });
});
