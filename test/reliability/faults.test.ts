import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bridgeRestartedMidCall,
  FAULT_BOUND_MS,
  networkBlackhole,
  networkDelay,
  networkDropMidCall,
  pluginKilledMidCall,
  slowPluginPastDeadline,
  type FaultResult,
} from './scenarios/faults.js';

function assertSurvived(r: FaultResult, expected: (outcome: FaultResult['outcome']) => boolean, what: string): void {
  assert.ok(r.outcome.kind !== 'hung', `${r.fault}: the call hung (${r.detail})`);
  assert.ok(r.endedInBound, `${r.fault}: ended outside ${FAULT_BOUND_MS} ms or badly: ${r.detail}`);
  assert.ok(expected(r.outcome), `${r.fault}: expected ${what}, got ${r.detail}`);
  assert.ok(r.healthyAfter, `${r.fault}: the bridge did not serve a healthy plugin afterwards`);
}

const structured = (...codes: string[]) => (o: FaultResult['outcome']) => o.kind === 'structured-error' && codes.includes(o.code);

describe('faults: every call ends in a result or a structured error, and the bridge keeps serving', () => {
  test('a slow plugin past the deadline earns ToolTimeout', async () => {
    assertSurvived(await slowPluginPastDeadline(), structured('ToolTimeout'), 'ToolTimeout');
  });
  test('a plugin process killed mid-call earns a structured error', async () => {
    assertSurvived(await pluginKilledMidCall(), structured('PluginUnavailable', 'PluginReloading', 'ToolTimeout'), 'a structured unavailability error');
  });
  test('a blackholed link earns a structured error by the deadline', async () => {
    assertSurvived(await networkBlackhole(), structured('ToolTimeout', 'PluginUnavailable'), 'ToolTimeout');
  });
  test('a delayed link still delivers the result exactly once', async () => {
    assertSurvived(await networkDelay(), (o) => o.kind === 'result', 'a result');
  });
  test('a connection dropped mid-call ends the call and the plugin comes back', async () => {
    assertSurvived(await networkDropMidCall(), structured('PluginUnavailable', 'PluginReloading', 'ToolTimeout'), 'a structured error');
  });
  test('a bridge restarted mid-call: the agent gets an error, the plugin reconnects to the new bridge', async () => {
    assertSurvived(await bridgeRestartedMidCall(), (o) => o.kind === 'transport-error' || o.kind === 'structured-error', 'an error');
  });
});
