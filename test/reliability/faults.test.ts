import { describe, test, type TestContext } from 'node:test';
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

/** Runs the scenario and checks it; its detail is printed as a diagnostic, so a passing run still says what the calls met. */
async function assertSurvived(t: TestContext, scenario: () => Promise<FaultResult>, expected: (outcome: FaultResult['outcome']) => boolean, what: string): Promise<void> {
  const r = await scenario();
  t.diagnostic(`${r.fault}: ${r.detail}`);
  assert.ok(r.outcome.kind !== 'hung', `${r.fault}: the call hung (${r.detail})`);
  assert.ok(r.endedInBound, `${r.fault}: ended outside ${FAULT_BOUND_MS} ms or badly: ${r.detail}`);
  assert.ok(expected(r.outcome), `${r.fault}: expected ${what}, got ${r.detail}`);
  assert.ok(r.healthyAfter, `${r.fault}: the bridge did not serve a healthy plugin afterwards: ${r.detail}`);
}

const structured = (...codes: string[]) => (o: FaultResult['outcome']) => o.kind === 'structured-error' && codes.includes(o.code);

describe('faults: every call ends in a result or a structured error, and the bridge keeps serving', () => {
  test('a slow plugin past the deadline earns ToolTimeout', async (t) => {
    await assertSurvived(t, slowPluginPastDeadline, structured('ToolTimeout'), 'ToolTimeout');
  });
  test('a plugin process killed mid-call earns a structured error', async (t) => {
    await assertSurvived(t, pluginKilledMidCall, structured('PluginUnavailable', 'PluginReloading', 'ToolTimeout'), 'a structured unavailability error');
  });
  test('a blackholed link earns a structured error by the deadline', async (t) => {
    await assertSurvived(t, networkBlackhole, structured('ToolTimeout', 'PluginUnavailable'), 'ToolTimeout');
  });
  test('a delayed link still delivers the result exactly once', async (t) => {
    await assertSurvived(t, networkDelay, (o) => o.kind === 'result', 'a result');
  });
  test('a connection dropped mid-call ends the call and the plugin comes back', async (t) => {
    await assertSurvived(t, networkDropMidCall, structured('PluginUnavailable', 'PluginReloading', 'ToolTimeout'), 'a structured error');
  });
  test('a bridge restarted mid-call: the agent gets an error, the plugin reconnects to the new bridge', async (t) => {
    await assertSurvived(t, bridgeRestartedMidCall, (o) => o.kind === 'transport-error' || o.kind === 'structured-error', 'an error');
  });
});
