import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentView, CallApprovalView, CallView, PolicyDecisionView } from '../../../src-main/contracts/console.js';
import { CallMap } from '../../../src-renderer/src/store/call-map.js';
import { agentParts, callState, decisionLabel, executionMs, filterCalls, recordedStatus } from '../../../src-renderer/src/lib/calls.js';
import { matchesSearch, parseSearch, words } from '../../../src-renderer/src/lib/search.js';
import { noticeTtl, shownNotices, subjectTarget } from '../../../src-renderer/src/lib/notices.js';
import { agentProject, callsPerAgent } from '../../../src-renderer/src/lib/agents.js';
import { answerProblems, elicitationFields, initialAnswer } from '../../../src-renderer/src/lib/elicitation-form.js';
import { callTrace, parseToolsCall } from '../../../src-renderer/src/lib/jsonrpc-trace.js';
import { alwaysAllowScope, decisionText, findingsAddedBy, ruleMatchers, undoableAlwaysAllows } from '../../../src-renderer/src/lib/policy-rules.js';
import { exportHref } from '../../../src-renderer/src/lib/history-export.js';
import { groupSnippets, snippetFacts } from '../../../src-renderer/src/lib/snippets.js';
import { callUrl, parseRoute, routeHash } from '../../../src-renderer/src/store/ui.js';
import { accessKeyOf, isViewId, VIEWS } from '../../../src-renderer/src/views/registry.js';
import type { ConsoleNotice } from '../../../src-renderer/src/store/store.js';

const call = (id: string, patch: Partial<CallView> = {}): CallView => ({ callId: id, agent: 'claude-ops/2.1.0 #1', transport: 'mcp-http', tool: 'add-object', target: 'bridge:editor', status: 'ok', startedAt: 0, requestBytes: 1, ...patch });
const decision = (patch: Partial<PolicyDecisionView>): PolicyDecisionView => ({ action: 'ask', ruleIndex: 0, reason: 'r', decidedBy: 'operator', decision: 'allow-once', policyVersion: 1, ...patch });
const approval = (callId: string): CallApprovalView =>
  ({ askId: `a-${callId}`, callId, digest: 'd', policyVersion: 1, tool: 'remove-*', agent: 'x', agentName: 'x', transport: 'mcp-http', target: 'host', arguments: {}, argumentBytes: 2, ruleIndex: 0, reason: 'r', requestedAt: 0, expiresAt: 1, state: 'pending' }) as CallApprovalView;

describe('view registry', () => {
  test('every view once, with an id the address can name and access keys 1 to 9 then 0', () => {
    assert.equal(new Set(VIEWS.map((v) => v.id)).size, VIEWS.length);
    assert.ok(VIEWS.every((v) => isViewId(v.id) && v.label && v.heading));
    assert.deepEqual([0, 8, 9, 10].map(accessKeyOf), ['1', '9', '0', undefined]);
    assert.equal(isViewId('nope'), false);
  });

  test('the address names the view and the selected call, and survives a round trip', () => {
    assert.deepEqual(parseRoute('#calls/0192%2Fx'), { view: 'calls', callId: '0192/x' });
    assert.deepEqual(parseRoute('#policy/ignored'), { view: 'policy', callId: undefined });
    assert.deepEqual(parseRoute('#unknown'), { view: 'plugins', callId: undefined });
    assert.equal(routeHash(parseRoute('#calls/abc')), '#calls/abc');
    assert.equal(callUrl({ origin: 'http://127.0.0.1:8080', pathname: '/' }, 'c 1'), 'http://127.0.0.1:8080/#calls/c%201');
  });
});

describe('call states and decisions', () => {
  test('held while waiting for the operator, refused when a decision denied it, else its status', () => {
    const held = new Map([['h', approval('h')]]);
    assert.equal(callState(call('h', { status: 'running' }), held), 'held');
    assert.equal(callState(call('r', { status: 'running' }), held), 'running');
    assert.equal(callState(call('d', { status: 'error', policy: decision({ decision: 'deny' }) }), held), 'refused');
    assert.equal(callState(call('f', { status: 'error' }), held), 'error');
    assert.deepEqual(['all', 'held', 'refused', 'error', 'ok'].map((s) => recordedStatus(s as never)), [undefined, undefined, 'error', 'error', 'ok']);
  });

  test('who decided what, and what the call itself took', () => {
    assert.equal(decisionLabel(decision({})), 'operator: allowed once');
    assert.equal(decisionLabel(decision({ decidedBy: 'timeout', decision: 'deny' })), 'nobody: timed out');
    assert.equal(decisionLabel(decision({ decidedBy: 'policy', ruleIndex: 2, decision: 'deny', action: 'deny' })), 'rule 2: denied');
    assert.equal(decisionLabel(decision({ decidedBy: 'policy', ruleIndex: null, action: 'allow' })), undefined, 'the default allow is nobody deciding');
    assert.equal(executionMs(call('x', { durationMs: 40_012, policy: decision({ heldMs: 40_000 }) })), 12);
    assert.equal(executionMs(call('x', { durationMs: 5 })), 5);
  });

  test('an agent label splits into the name and the session tag that tells sessions apart', () => {
    assert.deepEqual(agentParts('claude-ops/2.1.0 #12'), { name: 'claude-ops/2.1.0', session: '#12' });
    assert.deepEqual(agentParts('http 127.0.0.1 curl/8'), { name: 'http 127.0.0.1 curl/8', session: undefined });
  });

  test('filters by state and searches like the audit trail', () => {
    const calls = CallMap.of([call('1', { tool: 'login-user' }), call('2', { tool: 'no-such-tool', status: 'error', errorCode: 'ToolNotFound' }), call('3', { status: 'running' })]);
    const ids = ['1', '2', '3'];
    const held = new Map([['3', approval('3')]]);
    assert.deepEqual(filterCalls(calls, ids, { status: 'held', text: '' }, held).map((c) => c.callId), ['3']);
    assert.deepEqual(filterCalls(calls, ids, { status: 'all', text: 'LOGI' }).map((c) => c.callId), ['1']);
    assert.deepEqual(filterCalls(calls, ids, { status: 'all', text: 'no-such' }).map((c) => c.callId), ['2']);
    assert.deepEqual(filterCalls(calls, ids, { status: 'all', text: 'ogin' }).map((c) => c.callId), [], 'a word matches from its start');
  });
});

describe('search semantics', () => {
  test('every term must match adjacent words; the last word is a prefix from three characters on; accents and case do not count', () => {
    const fields = [words('tool-12 Crème brûlée')];
    const id = '0195f3a2-7c41-7a0b-9d2e-5b6c7d8e9f01';
    assert.equal(matchesSearch(parseSearch('tool-12'), fields, id), true);
    assert.equal(matchesSearch(parseSearch('tool-1'), fields, id), false, 'a two-character last word is exact');
    assert.equal(matchesSearch(parseSearch('creme BRU'), fields, id), true);
    assert.equal(matchesSearch(parseSearch('creme missing'), fields, id), false);
    assert.equal(matchesSearch(parseSearch('  '), fields, id), true, 'no words: everything matches');
    assert.equal(matchesSearch(parseSearch('"OR" (tool)'), [words('tool or')], id), true, 'punctuation and operators are plain words');
  });

  test('a term matches the call id when it is the id or, from eight characters on, its beginning (case ignored)', () => {
    const fields = [words('document-read')];
    const id = '0195f3a2-7c41-7a0b-9d2e-5b6c7d8e9f01';
    assert.equal(matchesSearch(parseSearch(id), fields, id), true, 'the whole id');
    assert.equal(matchesSearch(parseSearch('0195F3A2-7C41'), fields, id), true, 'its beginning, any case');
    assert.equal(matchesSearch(parseSearch('0195f3a2 document'), fields, id), true, 'beside a term the fields match');
    assert.equal(matchesSearch(parseSearch('0195f3a'), fields, id), false, 'seven characters are too few for a prefix');
    assert.equal(matchesSearch(parseSearch('9d2e-5b6c7d8e9f01'), fields, id), false, "the id's later groups are not words of the call");
    assert.equal(matchesSearch(parseSearch('call-7'), fields, 'call-7'), true, 'a short id, exactly');
    assert.equal(matchesSearch(parseSearch('call-7'), fields, 'call-77'), false, '…and not as a prefix');
  });
});

describe('notices', () => {
  const n = (id: string, level: ConsoleNotice['level'] = 'info'): ConsoleNotice => ({ id, level, title: id, message: '', at: 0 });
  test('expire later the more they matter, unless they say how long', () => {
    assert.ok(noticeTtl(n('a', 'ok')) < noticeTtl(n('b', 'info')) && noticeTtl(n('b', 'info')) < noticeTtl(n('c', 'warning')) && noticeTtl(n('c', 'warning')) < noticeTtl(n('d', 'error')));
    assert.equal(noticeTtl({ level: 'error', ttlMs: 500 }), 500);
  });
  test('at most three show, the newest; the rest wait behind a count', () => {
    const all = ['1', '2', '3', '4', '5'].map((id) => n(id));
    assert.deepEqual(shownNotices(all, false).shown.map((x) => x.id), ['3', '4', '5']);
    assert.equal(shownNotices(all, false).hidden, 2);
    assert.equal(shownNotices(all, true).shown.length, 5);
  });
  test('each subject links to where it lives', () => {
    assert.deepEqual(subjectTarget({ kind: 'plugin', id: 'c1', label: 'p' }), { view: 'plugins', connectionId: 'c1' });
    assert.deepEqual(subjectTarget({ kind: 'call', id: 'x', label: 'c' }), { view: 'calls', callId: 'x' });
    assert.deepEqual(subjectTarget({ kind: 'elicitation', id: 'e', label: 'e' }), { view: 'calls', elicitationId: 'e' });
    assert.equal(subjectTarget({ kind: 'agent', id: 's', label: 'a' }).view, 'agents');
  });
});

describe('agents', () => {
  const agent = (sessionId: string, patch: Partial<AgentView> = {}): AgentView => ({ sessionId, transport: 'mcp-http', connectedAt: 0, ...patch });
  test('calls count per session, and per label for agents without one (direct HTTP callers, stateless MCP agents)', () => {
    const calls = CallMap.of([
      call('1', { sessionId: 's1' }),
      call('2', { sessionId: 's1' }),
      call('3', { sessionId: 's2' }),
      call('4', { transport: 'http-api', agent: 'http 127.0.0.1 curl' }),
      call('5', { agent: 'raw/1.0 2026-07-28' }),
      call('6', { agent: 'raw/1.0 2026-07-28' }),
    ]);
    const agents = [agent('s1'), agent('s2'), agent('s3'), agent('api-1', { transport: 'http-api', clientName: 'http 127.0.0.1 curl', callLabel: 'http 127.0.0.1 curl' }), agent('mcp-1', { clientName: 'raw', protocolVersion: '2026-07-28', callLabel: 'raw/1.0 2026-07-28' })];
    const counts = callsPerAgent(agents, calls, ['1', '2', '3', '4', '5', '6']);
    assert.deepEqual([...counts], [['s1', 2], ['s2', 1], ['s3', 0], ['api-1', 1], ['mcp-1', 2]]);
  });
  test('the project an agent uses, by name', () => {
    const plugins = [{ connectionId: 'c', role: 'editor' as const, name: 'u', connectedAt: 0, reconnects: 0, toolCount: 0, promptCount: 0, resourceCount: 0, state: 'connected' as const, project: { key: 'k', label: 'unity:Game on box' } }];
    assert.equal(agentProject(agent('s', { projectKey: 'k' }), plugins, undefined), 'unity:Game on box');
    assert.equal(agentProject(agent('s', { pin: 'abcd' }), [], undefined), 'pin abcd');
    assert.equal(agentProject(agent('s'), [], undefined), 'the one project');
  });
});

describe('elicitation form', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', minLength: 2, default: 'Ada' },
      age: { type: 'integer', minimum: 0, maximum: 150 },
      tier: { type: 'string', oneOf: [{ const: 'a', title: 'Alpha' }, { const: 'b', title: 'Beta' }] },
      tags: { type: 'array', items: { enum: ['x', 'y'] } },
      ok: { type: 'boolean' },
    },
    required: ['name', 'age'],
  };
  test('fields follow the flat schema: text, numbers with bounds, choices, multiple choices, booleans', () => {
    const fields = elicitationFields(schema);
    assert.deepEqual(fields.map((f) => [f.name, f.kind, f.required]), [['name', 'text', true], ['age', 'integer', true], ['tier', 'choice', false], ['tags', 'choices', false], ['ok', 'boolean', false]]);
    assert.deepEqual(fields[2]?.options, [{ value: 'a', title: 'Alpha' }, { value: 'b', title: 'Beta' }]);
    assert.deepEqual(initialAnswer(fields), { name: 'Ada' });
  });
  test('problems an answer has before it is sent', () => {
    const fields = elicitationFields(schema);
    assert.deepEqual(answerProblems(fields, { name: 'A', age: 1.5 }), ['Name needs at least 2 characters', 'age must be a whole number']);
    assert.deepEqual(answerProblems(fields, { name: 'Ada' }), ['age is required']);
    assert.deepEqual(answerProblems(fields, { name: 'Ada', age: 200 }), ['age must be at most 150']);
    assert.deepEqual(answerProblems(fields, { name: 'Ada', age: 30, tags: ['x'] }), []);
  });
});

describe('JSON-RPC trace', () => {
  test('a call as its messages: request (with a progress token when it reported progress), nested requests and answers, response', () => {
    const c = call('c', { progress: { progress: 1, total: 2 }, nested: [{ callId: 'c', nestedId: 'n', kind: 'elicitation', status: 'ok', startedAt: 0, summary: 'Sure?', outcome: 'accept' }] });
    const trace = callTrace(c, { call: c, arguments: { a: 1 }, result: { content: [] } });
    assert.deepEqual(trace.map((m) => [m.direction, m.label]), [['to Junction', 'request'], ['to the agent', 'last progress notification'], ['to the agent', 'elicitation request'], ['to Junction', 'elicitation answer'], ['to the agent', 'response']]);
    assert.deepEqual(trace[0]?.message, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add-object', arguments: { a: 1 }, _meta: { progressToken: 'progress-1' } } });
  });
  test("a roots request reads as roots/list, its answer as how many roots (the console keeps no agent paths)", () => {
    const c = call('c', { nested: [{ callId: 'c', nestedId: 'r', kind: 'roots', status: 'ok', startedAt: 0, summary: 'roots/list', outcome: '2 roots' }] });
    const trace = callTrace(c, { call: c, arguments: {}, result: { content: [] } });
    assert.deepEqual(trace[1]?.message, { jsonrpc: '2.0', id: 'junction-1', method: 'roots/list', params: {} });
    assert.deepEqual(trace[2]?.message, { jsonrpc: '2.0', id: 'junction-1', result: { roots: '[2 roots]' } });
  });
  test('an edited request comes back as a tool and its arguments, or says what is wrong', () => {
    assert.deepEqual(parseToolsCall('{"method":"tools/call","params":{"name":"x","arguments":{"a":1}}}'), { ok: true, name: 'x', args: { a: 1 } });
    assert.equal(parseToolsCall('{"method":"tools/list"}').ok, false);
    assert.equal(parseToolsCall('{').ok, false);
    assert.equal(parseToolsCall('{"method":"tools/call","params":{"name":"x","arguments":[1]}}').ok, false);
  });
});

describe('policy rules in words', () => {
  test('matchers read as one line, including operands the console does not know by name', () => {
    assert.equal(ruleMatchers({ tool: 'remove-*', arguments: [{ pointer: '/n', regex: '^a' }, { pointer: '/x', exists: false }], action: 'ask' }), 'tool remove-*, /n ~ /^a/, /x absent');
    assert.equal(ruleMatchers({ arguments: [{ pointer: '/n', greaterThan: 5 } as never], action: 'deny' }), '/n > 5');
    assert.equal(ruleMatchers({ action: 'allow' }), 'every call');
  });
  test('always allow in words: the tool and agent of the held call, the asking rule\'s other matchers, other agents still asked', () => {
    const scope = alwaysAllowScope({ tool: 'remove-object', agentName: 'claude-ops' }, { tool: 'remove-object', agent: 'claude-ops', role: 'editor', action: 'allow', reason: 'r' });
    assert.equal(scope, 'From then on every call of remove-object by claude-ops where the asking rule matched too (role editor) runs without asking; other agents are still asked.');
    assert.match(alwaysAllowScope({ tool: 't', agentName: 'a' }, { tool: 't', agent: 'a', action: 'allow' }), /by a with any arguments/);
  });
  test('the findings an inserted rule adds: known ones shift past the insertion and are not repeated', () => {
    const before = [{ ruleIndex: 2, byRule: 0, kind: 'shadowed' as const, message: 'old' }];
    const after = [
      { ruleIndex: 3, byRule: 0, kind: 'shadowed' as const, message: 'old, shifted' },
      { ruleIndex: 2, byRule: 1, kind: 'shadowed' as const, message: 'new' },
    ];
    assert.deepEqual(findingsAddedBy(after, before, 1).map((f) => f.message), ['new']);
    assert.deepEqual(findingsAddedBy(after, [], 1).length, 2);
  });
  test('an always-allow stays undoable until a later change takes the same rule out; newest first', () => {
    const rule = (tool: string) => ({ tool, agent: 'a', action: 'allow' as const, reason: `held call ${tool}` });
    const change = (kind: 'always-allow' | 'undone' | 'edited', version: number, tool?: string) => ({ kind, by: 'operator' as const, previousVersion: version - 1, version, at: version, ...(tool ? { rule: rule(tool) } : {}) });
    const changes = [change('always-allow', 2, 'x'), change('always-allow', 3, 'y'), change('edited', 4), change('undone', 5, 'x'), change('always-allow', 6, 'z')];
    assert.deepEqual(undoableAlwaysAllows(changes).map((c) => c.version), [6, 3]);
  });
  test('a decision in words, or how the wait ended without one', () => {
    assert.equal(decisionText({ state: 'allowed', decision: 'allow-session' }), 'allowed for the session');
    assert.equal(decisionText({ state: 'timedOut' }), 'timed out');
  });
});

describe('history export link', () => {
  test('follows the filter and the search', () => {
    assert.equal(exportHref({ status: 'all', text: '' }), '/audit/export?format=jsonl');
    assert.equal(exportHref({ status: 'refused', text: ' Crate ' }), '/audit/export?format=jsonl&status=error&refused=true&text=Crate');
    assert.equal(exportHref({ status: 'error', text: '' }, 'csv'), '/audit/export?format=csv&status=error&refused=false');
  });
});

describe('client setup snippets', () => {
  test('group by client, keep each form, say where it goes', () => {
    const groups = groupSnippets([
      { client: 'Claude Desktop (stdio)', format: 'json', text: '{}', transport: 'stdio', target: 'claude_desktop_config.json' },
      { client: 'Claude Code: command (stdio)', format: 'shell', text: 'claude mcp add', transport: 'stdio', target: 'a terminal' },
      { client: 'Claude Code: .mcp.json (streamable HTTP)', format: 'json', text: '{}', transport: 'streamable-http', target: '.mcp.json' },
    ]);
    assert.deepEqual(groups.map((g) => [g.client, g.snippets.map((s) => s.form)]), [['Claude Desktop', ['']], ['Claude Code', ['command', '.mcp.json']]]);
    assert.equal(snippetFacts(groups[1]!.snippets[0]!), 'stdio · run in a terminal · shell');
    assert.equal(snippetFacts(groups[0]!.snippets[0]!), 'stdio · goes in claude_desktop_config.json · json');
  });
});
