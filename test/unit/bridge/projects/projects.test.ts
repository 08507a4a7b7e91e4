import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MCP_PLUGIN_VERSION } from '../../../../plugins/sdk/wire/index.js';
import { pinFor, pinsFor, projectIdentityOf, ProjectRegistry } from '../../../../src-main/bridge/projects/index.js';
import { splitPinnedPath } from '../../../../src-main/shared/project-pin.js';
import { tool } from '../registry/fixtures.js';

describe('project pins in paths', () => {
  test('absent, valid (lower-cased) and malformed are three different answers', () => {
    assert.deepEqual(splitPinnedPath('/mcp'), { kind: 'absent', rest: '/mcp' });
    assert.deepEqual(splitPinnedPath('/p/AbC123/mcp'), { kind: 'valid', pin: 'abc123', rest: '/mcp' });
    assert.deepEqual(splitPinnedPath(`/p/${'f'.repeat(64)}/api/tools/x`), { kind: 'valid', pin: 'f'.repeat(64), rest: '/api/tools/x' });
    for (const path of [`/p/${'f'.repeat(65)}/mcp`, '/p/xyz/mcp', '/p//mcp', '/p/', '/P/abc/mcp', '/p/ab%20/mcp', '/p/-1/mcp']) {
      assert.equal(splitPinnedPath(path).kind, 'malformed', path);
    }
    assert.equal(splitPinnedPath('/p').kind, 'absent', 'no pin segment at all is not a pin');
    assert.equal(splitPinnedPath('/api/tools/p').kind, 'absent');
  });

  test('pins are the shortest unique prefix of at least 8 characters', () => {
    assert.equal(pinFor('aabbccdd1122', []), 'aabbccdd');
    assert.equal(pinFor('aabbccdd1122', ['aabbccdd1199']), 'aabbccdd112');
    assert.equal(pinFor('abc', []), 'abc');
  });

  test('all pins at once are the pins each hash gets against all the others', () => {
    // The definition, compared pair by pair: the shortest prefix of at least 8 that no other hash starts with.
    const pairwise = (hash: string, others: readonly string[]) => {
      let length = Math.min(8, hash.length);
      while (length < hash.length && others.some((o) => o !== hash && o.startsWith(hash.slice(0, length)))) length++;
      return hash.slice(0, length);
    };
    let seed = 7;
    const hex = (n: number) => Array.from({ length: n }, () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), '0123'[seed % 4])).join('');
    const hashes = Array.from({ length: 300 }, (_, i) => hex(1 + (i % 24)));
    hashes.push(hashes[5]!, `${hashes[40]!}0`, hashes[41]!.slice(0, 3));
    const pins = pinsFor(hashes);
    for (const hash of hashes) assert.equal(pins.get(hash), pairwise(hash, hashes), hash);
  });
});

describe('project fields from the hub query', () => {
  test('valid fields are read (hashes lower-cased), empty ones left out', () => {
    const parsed = projectIdentityOf(new URLSearchParams('instance_id=i1&engine=unity&project_name=My Game&project_path_hash=ABCDEF&project_path_hash_legacy=&machine_name=PC-1'));
    assert.deepEqual(parsed, { ok: true, identity: { instanceId: 'i1', engine: 'unity', projectName: 'My Game', projectPathHash: 'abcdef', machineName: 'PC-1' } });
  });

  test('path separators, control characters, non-hex hashes and oversized names are refused with the field named', () => {
    const cases: Array<[string, string]> = [
      ['project_name=a/b', 'project_name'],
      ['project_name=a%5Cb', 'project_name'],
      ['machine_name=pc%0Aforged', 'machine_name'],
      ['instance_id=%00', 'instance_id'],
      ['project_path_hash=xyz', 'project_path_hash'],
      [`engine=${'e'.repeat(257)}`, 'engine'],
    ];
    for (const [query, field] of cases) {
      const parsed = projectIdentityOf(new URLSearchParams(query));
      assert.equal(parsed.ok, false, query);
      if (!parsed.ok) {
        assert.equal(parsed.field, field);
        assert.match(parsed.message, new RegExp(`'${field}'`));
      }
    }
  });
});

let counter = 0;
function join(registry: ProjectRegistry, query: string, options: { role?: 'editor' | 'runtime'; tools?: string[] } = {}): string {
  const id = `c${++counter}`;
  const q = new URLSearchParams(query);
  if (options.role) q.set('client_role', options.role);
  registry.connect({ connectionId: id, query: q, headers: {}, connectedAt: counter });
  const outcome = registry.handshake(id, { requestId: 'r', apiVersion: '2.0.0', pluginVersion: '1', environment: 'test', mcpPluginVersion: MCP_PLUGIN_VERSION });
  assert.equal(outcome.response.compatible, true);
  registry.setTools(id, (options.tools ?? ['t']).map((t) => tool(t)));
  return id;
}

describe('project registry', () => {
  test('single routing keeps the seed rule: one editor in all, the newest replaces the older across projects', () => {
    let now = 1_000;
    const registry = new ProjectRegistry('1.0.0', 'single', () => now);
    join(registry, 'project_path_hash=aaaa1111&project_name=A', { role: 'editor' });
    now += 10;
    join(registry, 'project_path_hash=bbbb2222&project_name=B', { role: 'editor' });
    assert.deepEqual(registry.views(now).map((v) => v.project?.projectName), ['B']);
    assert.equal(registry.liveProjects().length, 1);
  });

  test('multi routing keeps editors of different projects side by side, and replaces within a project', () => {
    let now = 1_000;
    const registry = new ProjectRegistry('1.0.0', 'multi', () => now);
    join(registry, 'project_path_hash=aaaa1111&project_name=A', { role: 'editor' });
    join(registry, 'project_path_hash=aaaa1111&project_name=A', { role: 'runtime' });
    now += 10;
    join(registry, 'project_path_hash=bbbb2222&project_name=B', { role: 'editor' });
    assert.equal(registry.views(now).length, 3);
    now += 10;
    const newer = join(registry, 'project_path_hash=aaaa1111&project_name=A', { role: 'editor' });
    const a = registry.views(now).filter((v) => v.project?.projectName === 'A');
    assert.deepEqual(a.map((v) => v.role).sort(), ['editor', 'runtime']);
    assert.ok(a.some((v) => v.connectionId === newer), 'the newer editor replaced the older within A only');
  });

  test('resolution: strict pin, sticky selection, the only project, most recently active with a one-time note', () => {
    let now = 1_000;
    const registry = new ProjectRegistry('1.0.0', 'multi', () => now);
    join(registry, 'project_path_hash=aaaa1111&project_name=A&engine=unity&machine_name=PC');
    assert.deepEqual(
      (({ kind, note }) => ({ kind, note }))(registry.resolve({ sessionId: 's1' }) as { kind: string; note?: string }),
      { kind: 'resolved', note: undefined },
      'one project: no note',
    );
    now += 10;
    join(registry, 'project_path_hash=bbbb2222&project_name=B&engine=unity&machine_name=PC');
    const mru = registry.resolve({ sessionId: 's1' });
    assert.equal(mru.kind === 'resolved' && mru.project.identity.projectName, 'B');
    assert.equal(mru.kind === 'resolved' && mru.note, 'Routed to unity:B on PC; use list_engine_instances / select_engine_instance to switch.');
    const again = registry.resolve({ sessionId: 's1' });
    assert.equal(again.kind === 'resolved' && again.note, undefined);
    const sessionless = registry.resolve({});
    assert.ok(sessionless.kind === 'resolved' && sessionless.note, 'a sessionless caller hears the note every time');

    const pinnedA = registry.resolve({ sessionId: 's2', pin: 'aaaa' });
    assert.equal(pinnedA.kind === 'resolved' && pinnedA.project.identity.projectName, 'A');
    const wrong = registry.resolve({ sessionId: 's2', pin: 'cccc' });
    assert.equal(wrong.kind, 'noMatchPinned');

    const keyA = registry.liveProjects().find((p) => p.identity.projectName === 'A')?.key ?? '';
    registry.select('s1', keyA);
    const sticky = registry.resolve({ sessionId: 's1' });
    assert.equal(sticky.kind === 'resolved' && sticky.project.identity.projectName, 'A');
    const stickyButPinned = registry.resolve({ sessionId: 's1', pin: 'bbbb' });
    assert.equal(stickyButPinned.kind === 'resolved' && stickyButPinned.project.identity.projectName, 'B', 'a selection never overrides a pin');
    registry.forgetSession('s1');
    const forgotten = registry.resolve({ sessionId: 's1' });
    assert.equal(forgotten.kind === 'resolved' && forgotten.project.identity.projectName, 'B');
  });

  test('a project whose plugins all left is forgotten, but its name is remembered for the pin error', () => {
    const now = 1_000;
    const registry = new ProjectRegistry('1.0.0', 'multi', () => now);
    const b = join(registry, 'project_path_hash=bbbb2222&project_name=B&engine=godot');
    join(registry, 'project_path_hash=aaaa1111&project_name=A');
    registry.disconnect(b, now, 0);
    assert.equal(registry.liveProjects().length, 1);
    const gone = registry.resolve({ pin: 'bbbb' });
    assert.equal(gone.kind, 'noMatchPinned');
    assert.match(gone.kind === 'noMatchPinned' ? gone.message : '', /godot:B \(pin bbbb\).*Connected projects: A/);
  });

  test('a pinned call among 1,000 projects looks only at the projects its pin can match', () => {
    let now = 1_000;
    const registry = new ProjectRegistry('1.0.0', 'multi', () => now);
    const hashOf = (i: number) => i.toString(16).padStart(8, '0').repeat(8);
    for (let i = 0; i < 1000; i++) {
      now += 1;
      join(registry, `project_path_hash=${hashOf(i)}&project_name=P${i}`);
    }
    const projects = registry.liveProjects();
    let looked = 0;
    for (const project of projects) {
      const hasPlugins = project.registry.hasPlugins.bind(project.registry);
      project.registry.hasPlugins = (at: number) => (looked++, hasPlugins(at));
    }
    const pinned = registry.resolve({ sessionId: 's', pin: hashOf(417).slice(0, 12) });
    assert.equal(pinned.kind === 'resolved' && pinned.project.identity.projectName, 'P417');
    assert.ok(looked <= 2, `resolving one pin asked ${looked} projects whether they are live`);
    const latest = registry.resolve({ sessionId: 's' });
    assert.equal(latest.kind === 'resolved' && latest.project.identity.projectName, 'P999', 'unpinned: the most recently active project');
    registry.touch(projects.find((p) => p.identity.projectName === 'P3')!);
    const touched = registry.resolve({ sessionId: 's' });
    assert.equal(touched.kind === 'resolved' && touched.project.identity.projectName, 'P3', 'a routed call makes its project the most recent');
  });

  test('among projects equally recent the earliest joined is the latest, and an ambiguous pin lists its projects most recent first', () => {
    let now = 1_000;
    const registry = new ProjectRegistry('1.0.0', 'multi', () => now);
    join(registry, 'project_path_hash=abcd0001&project_name=A');
    join(registry, 'project_path_hash=abcd0002&project_name=B');
    const tie = registry.resolve({});
    assert.equal(tie.kind === 'resolved' && tie.project.identity.projectName, 'A');
    now += 10;
    join(registry, 'project_path_hash=abcd0003&project_name=C');
    const ambiguous = registry.resolve({ pin: 'abcd' });
    assert.equal(ambiguous.kind, 'ambiguousPin');
    assert.deepEqual(ambiguous.kind === 'ambiguousPin' && ambiguous.candidates.map((c) => c.label), ['C', 'A', 'B']);
    const short = registry.resolve({ pin: 'ab' });
    assert.deepEqual(short.kind === 'ambiguousPin' && short.candidates.map((c) => c.label), ['C', 'A', 'B'], 'a pin shorter than the index prefix finds the same projects');
  });

  test('switching routing forgets every plugin so they reconnect into the new grouping', () => {
    const registry = new ProjectRegistry('1.0.0', 'single', () => 1);
    join(registry, 'project_name=A');
    const disconnected: string[] = [];
    registry.events.on('pluginDisconnected', ({ connectionId }) => disconnected.push(connectionId));
    registry.setMode('multi');
    assert.equal(disconnected.length, 1);
    assert.deepEqual(registry.views(1), []);
    assert.equal(registry.mode, 'multi');
  });
});
