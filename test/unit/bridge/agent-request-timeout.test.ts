import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_REQUEST_TIMEOUT_MSEC } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { SDK_REQUEST_TIMEOUT_MS } from '../../../src-main/bridge/plugin-hub/attach.js';

test("a plugin's agent requests wait as long by default as the MCP SDK's own requests to an agent", () => {
  assert.equal(SDK_REQUEST_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MSEC);
});
