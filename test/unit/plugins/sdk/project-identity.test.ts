/**
 * The SDK hashes a project root as McpPlugin does. The vectors are McpPlugin's own
 * (McpPlugin/src/AgentConfig/ProjectIdentity.GoldenVectors.json and .v2.json at aefc899): the pin is
 * the first 8 hex characters of the hash.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { projectPathHash, projectPathHashLegacy } from '../../../../plugins/sdk/index.js';

const V2: Array<[string, string]> = [
  ['/home/user/my-game', '34ea75f2'],
  ['/home/user/my-game/', '34ea75f2'],
  ['/home/USER/My-Game', '34ea75f2'],
  ['C:\\Users\\user\\my-game', '5a87324e'],
  ['C:\\Users\\user\\my-game\\', '5a87324e'],
  ['C:/Users/user/my-game', '5a87324e'],
  // .NET's ToLowerInvariant leaves U+0130 alone; JavaScript's toLowerCase would give 77300275.
  ['/home/İstanbul/game', '672d80a7'],
  ['/srv/games/space sim', '08c6cbb6'],
];

const V1: Array<[string, string]> = [
  ['/home/user/my-game', '34ea75f2'],
  ['/home/USER/My-Game', '34ea75f2'],
  ['C:\\Users\\user\\my-game', '8ef72cf7'],
  ['C:\\Users\\user\\my-game\\', '8ef72cf7'],
  ['C:/Users/user/my-game', '5a87324e'],
  ['/home/İstanbul/game', '672d80a7'],
];

test("project path hashes match McpPlugin's golden vectors (v2, and v1 for project_path_hash_legacy)", () => {
  for (const [path, pin] of V2) {
    const hash = projectPathHash(path);
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.equal(hash.slice(0, 8), pin, path);
  }
  for (const [path, pin] of V1) assert.equal(projectPathHashLegacy(path).slice(0, 8), pin, path);
});
