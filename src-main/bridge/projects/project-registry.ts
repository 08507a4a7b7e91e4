/**
 * Plugins grouped by project (pure: no I/O, no timers; `now` comes from the caller). Each project keeps
 * its own PluginRegistry, so the editor/runtime slots, newest-wins replacement and the reconnect wait
 * apply within one project exactly as they did for the one project of single routing. In `single`
 * routing every connection belongs to one project, which is the seed's behaviour.
 *
 * Agents choose the project the way McpPlugin.Server's account routing lets them: a pin (strict, never
 * falls through), then the session's selection, then the only project, then the most recently active
 * one with an advisory note.
 */
import type { RequestVersionHandshake, ResponseListResource, ResponseListTool, ResponsePrompt, ResponseResourceTemplate } from '../../../plugins/sdk/wire/index.js';
import type { PluginProjectView, PluginView, ProjectRouting } from '../../contracts/index.js';
import { pinMatches, TypedEmitter } from '../../shared/index.js';
import { type AgentScope } from '../../contracts/index.js';
import { evaluateHandshake, PluginRegistry, type DuplicateToolDiagnostic, type HandshakeOutcome, type ListDegradedDiagnostic, type PluginConnectionInfo, type RegistryEvents } from '../registry/index.js';
import type { AwaitedPlugin, PluginRecord } from '../registry/index.js';
import { pinFor, pinsFor, projectIdentityOf, projectKeyOf, projectLabel, type ProjectIdentity } from './identity.js';

export interface Project {
  readonly key: string;
  readonly registry: PluginRegistry;
  /** From the newest connection that joined the project. */
  identity: ProjectIdentity;
  lastActiveAt: number;
  readonly connections: Set<string>;
  readonly unsubscribe: Array<() => void>;
}

/**
 * Where an agent session routes. A pin and a selection are strict: a pin that names no live project,
 * or several, and a selection whose project left, never route to another project.
 */
export type ProjectResolution =
  | { kind: 'resolved'; project: Project; note?: string }
  | { kind: 'noMatchPinned'; pin: string; message: string }
  | { kind: 'ambiguousPin'; pin: string; candidates: Array<{ label: string; pin: string | undefined }>; message: string }
  | { kind: 'selectionGone'; projectKey: string; message: string }
  | { kind: 'empty'; message: string };

/** One plugin connection as the selection tools list it. */
export interface InstanceView {
  instanceId: string;
  connectionId: string;
  role: PluginView['role'];
  state: PluginView['state'];
  projectKey: string;
  label: string;
  engine?: string;
  projectName?: string;
  machineName?: string;
  pin?: string;
  connectedAt: number;
  lastActiveAt: number;
}

/** A live project agents can pin: multi-project routing, and a path hash to pin by. */
export interface PinnedProject {
  key: string;
  label: string;
  pin: string;
  projectName?: string;
}

/** Project routing as the console, the path gate and the agents view see it: the bridge's public face of its projects. */
export interface ProjectRoutingControl {
  readonly mode: ProjectRouting;
  /** Forgets every plugin; the caller closes their connections so they reconnect into the new grouping. */
  setMode(mode: ProjectRouting): void;
  pinnedProjects(): PinnedProject[];
  /** The project key an agent session's calls go to right now; undefined in single routing or when none resolves. */
  routeOf(scope: AgentScope): string | undefined;
  /** The agent session ended: its selection goes with it. */
  forgetSession(sessionId: string): void;
  /** Projects, their pins or a session's selection changed. */
  onChanged(listener: () => void): () => void;
}

const SINGLE_KEY = 'single';
const MAX_SELECTIONS = 10_000;
const MAX_REMEMBERED_PROJECTS = 256;
/** Pins at least this long are looked up by their first characters instead of tested against every project. */
const PIN_INDEX_CHARS = 4;

/** Most recently active first; a stable sort keeps insertion order among equals. */
const byRecency = (a: Project, b: Project) => b.lastActiveAt - a.lastActiveAt;

export class ProjectRegistry implements ProjectRoutingControl {
  readonly events = new TypedEmitter<RegistryEvents & { projectsChanged: undefined; modeChanged: ProjectRouting }>();
  private readonly projects = new Map<string, Project>();
  private readonly byConnection = new Map<string, Project>();
  private readonly identities = new Map<string, ProjectIdentity>();
  /** Agent session id → selected project key (sticky until the session ends or selects again). */
  private readonly selections = new Map<string, string>();
  /** Session id → the project key its last advisory note named, so the note is given once. */
  private readonly advised = new Map<string, string>();
  /** Projects seen since start, so an error for a pin whose editor is closed can name the project. */
  private readonly remembered = new Map<string, ProjectIdentity>();
  /** See projectsByPinPrefix; dropped whenever a project comes, goes or changes its identity. */
  private pinIndex: Map<string, Project[]> | undefined;

  constructor(
    private readonly serverVersion: string,
    private currentMode: ProjectRouting,
    private readonly now: () => number,
  ) {}

  get mode(): ProjectRouting {
    return this.currentMode;
  }

  /** Forgets every plugin (the caller closes their connections so they reconnect into the new grouping). */
  setMode(mode: ProjectRouting): void {
    if (mode === this.currentMode) return;
    const gone = [...this.projects.values()].flatMap((p) => p.registry.views(this.now()).map((v) => v.connectionId));
    for (const project of this.projects.values()) for (const off of project.unsubscribe) off();
    this.projects.clear();
    this.pinIndex = undefined;
    this.byConnection.clear();
    this.identities.clear();
    this.selections.clear();
    this.advised.clear();
    this.currentMode = mode;
    for (const connectionId of gone) this.events.emit('pluginDisconnected', { connectionId });
    this.events.emit('toolsChanged', undefined);
    this.events.emit('promptsChanged', undefined);
    this.events.emit('resourcesChanged', undefined);
    this.events.emit('projectsChanged', undefined);
    this.events.emit('modeChanged', mode);
  }

  connect(info: PluginConnectionInfo): void {
    const parsed = projectIdentityOf(info.query);
    // The hub refuses invalid project fields before a connection exists; this is only a second line.
    const identity = parsed.ok ? parsed.identity : {};
    const key = this.currentMode === 'single' ? SINGLE_KEY : projectKeyOf(identity, info.connectionId);
    const project = this.projects.get(key) ?? this.createProject(key, identity);
    project.connections.add(info.connectionId);
    this.byConnection.set(info.connectionId, project);
    this.identities.set(info.connectionId, identity);
    project.registry.connect(info);
  }

  handshake(connectionId: string, request: RequestVersionHandshake): HandshakeOutcome {
    const project = this.byConnection.get(connectionId);
    if (!project) return { response: evaluateHandshake(request, this.serverVersion), replaced: [] };
    const outcome = project.registry.handshake(connectionId, request);
    if (outcome.response.compatible) {
      project.identity = this.identities.get(connectionId) ?? project.identity;
      this.pinIndex = undefined;
      project.lastActiveAt = this.now();
      this.remember(project);
      this.events.emit('projectsChanged', undefined);
    }
    for (const id of outcome.replaced) this.forgetConnection(id);
    this.sweepIdentities();
    return outcome;
  }

  setTools(connectionId: string, tools: readonly ResponseListTool[]): void {
    this.byConnection.get(connectionId)?.registry.setTools(connectionId, tools);
  }

  toolsUnavailable(connectionId: string): void {
    this.byConnection.get(connectionId)?.registry.toolsUnavailable(connectionId);
  }

  setPrompts(connectionId: string, prompts: readonly ResponsePrompt[]): void {
    this.byConnection.get(connectionId)?.registry.setPrompts(connectionId, prompts);
  }

  setResources(connectionId: string, resources: readonly ResponseListResource[], templates: readonly ResponseResourceTemplate[]): void {
    this.byConnection.get(connectionId)?.registry.setResources(connectionId, resources, templates);
  }

  listFailed(connectionId: string, list: 'prompts' | 'resources', reason: string): void {
    this.byConnection.get(connectionId)?.registry.listFailed(connectionId, list, reason);
  }

  noteFinding(connectionId: string, kind: string, message: string): void {
    this.byConnection.get(connectionId)?.registry.noteFinding(connectionId, kind, message);
  }

  disconnect(connectionId: string, now: number, waitMs: number): void {
    const project = this.byConnection.get(connectionId);
    if (!project) return;
    project.registry.disconnect(connectionId, now, waitMs);
    this.forgetConnection(connectionId);
    this.prune(project, now);
    this.sweepIdentities();
  }

  expireAwaited(now: number): number | undefined {
    let earliest: number | undefined;
    for (const project of [...this.projects.values()]) {
      const until = project.registry.expireAwaited(now);
      if (until !== undefined) earliest = Math.min(earliest ?? until, until);
      this.prune(project, now);
    }
    this.sweepIdentities();
    return earliest;
  }

  get(connectionId: string): PluginRecord | undefined {
    return this.byConnection.get(connectionId)?.registry.get(connectionId);
  }

  /** Every project's handshaken connections, most recently active project first. */
  active(): PluginRecord[] {
    return this.ordered().flatMap((p) => p.registry.active());
  }

  awaited(now: number): AwaitedPlugin[] {
    return this.ordered().flatMap((p) => p.registry.awaited(now));
  }

  views(now: number): PluginView[] {
    return this.ordered().flatMap((p) => p.registry.views(now).map((v) => this.withProject(v)));
  }

  diagnostics(): DuplicateToolDiagnostic[] {
    return [...this.projects.values()].flatMap((p) => p.registry.diagnostics());
  }

  degradedLists(): ListDegradedDiagnostic[] {
    return [...this.projects.values()].flatMap((p) => p.registry.degradedLists());
  }

  /** Every tool name once, across projects (the most recently active project wins a shared name). */
  publishedTools(): Array<{ tool: ResponseListTool; record: PluginRecord }> {
    const out = new Map<string, { tool: ResponseListTool; record: PluginRecord }>();
    for (const project of this.ordered()) for (const entry of project.registry.publishedTools()) if (!out.has(entry.tool.name)) out.set(entry.tool.name, entry);
    return [...out.values()];
  }

  /** Calls waiting on any project's registry for a plugin to be ready (each project's own relay excluded). */
  waitingCalls(): number {
    let waiting = 0;
    for (const project of this.projects.values()) waiting += project.registry.events.listenerCount('ready') - 1;
    return waiting;
  }

  /** Projects that have a live or awaited plugin, most recently active first. */
  liveProjects(): Project[] {
    const now = this.now();
    return this.ordered().filter((p) => p.registry.hasPlugins(now));
  }

  /** Where `scope` routes right now, without counting as the session's advisory note. */
  resolveQuietly(scope: AgentScope | undefined): ProjectResolution {
    return this.resolve(scope, false);
  }

  /**
   * The project an agent's call or listing goes to; never falls through a pin. Every call resolves, so
   * this never sorts or lists all projects: a pin looks its projects up by hash prefix, and the most
   * recently active project is one pass. Only the error messages list the live projects.
   */
  resolve(scope: AgentScope | undefined, advise = true): ProjectResolution {
    if (this.currentMode === 'single') {
      const only = this.projects.get(SINGLE_KEY);
      return only ? { kind: 'resolved', project: only } : { kind: 'empty', message: 'No plugin is connected.' };
    }
    const now = this.now();
    const pin = scope?.pin;
    const pinned = pin === undefined ? undefined : this.livePinned(pin, now);
    if (pin !== undefined && pinned?.length === 0) return { kind: 'noMatchPinned', pin, message: this.noMatchMessage(pin, this.liveProjects()) };
    const latest = pinned === undefined ? this.latestLive(now) : undefined;
    if (pinned === undefined && latest === undefined) return { kind: 'empty', message: 'No project is connected: open a project in its editor (its plugin connects to this bridge).' };
    const selected = scope?.sessionId === undefined ? undefined : this.selections.get(scope.sessionId);
    if (selected !== undefined) {
      const project = this.projects.get(selected);
      const live = project !== undefined && project.registry.hasPlugins(now);
      if (live && (pinned === undefined || pinned.includes(project))) return { kind: 'resolved', project };
      // A selection the pin excludes yields to the pin; one whose project left is not silently replaced.
      if (!live) return { kind: 'selectionGone', projectKey: selected, message: this.selectionGoneMessage(selected, this.liveProjects()) };
    }
    if (pinned !== undefined) {
      const [only] = pinned;
      if (only && pinned.length === 1) return { kind: 'resolved', project: only };
      const named = pinned.map((p) => ({ label: projectLabel(p.identity), pin: this.pinOf(p) }));
      return { kind: 'ambiguousPin', pin: pin!, candidates: named, message: this.ambiguousMessage(pin!, named) };
    }
    const { project: first, several } = latest!;
    if (!several) return { kind: 'resolved', project: first };
    const note = `Routed to ${projectLabel(first.identity)}; use list_engine_instances / select_engine_instance to switch.`;
    const sessionId = scope?.sessionId;
    if (!advise) return { kind: 'resolved', project: first };
    if (sessionId === undefined) return { kind: 'resolved', project: first, note };
    if (this.advised.get(sessionId) === first.key) return { kind: 'resolved', project: first };
    this.bounded(this.advised, sessionId, first.key);
    return { kind: 'resolved', project: first, note };
  }

  /** The live projects `pin` matches, most recently active first (as `liveProjects` orders them). */
  private livePinned(pin: string, now: number): Project[] {
    const pool = pin.length >= PIN_INDEX_CHARS ? (this.projectsByPinPrefix().get(pin.slice(0, PIN_INDEX_CHARS)) ?? []) : this.projects.values();
    const matches: Project[] = [];
    for (const project of pool) {
      if (pinMatches(pin, [project.identity.projectPathHash, project.identity.projectPathHashLegacy]) && project.registry.hasPlugins(now)) matches.push(project);
    }
    return matches.length > 1 ? matches.sort(byRecency) : matches;
  }

  /** The most recently active live project (the first of `liveProjects`), and whether there are others. */
  private latestLive(now: number): { project: Project; several: boolean } | undefined {
    let latest: Project | undefined;
    let several = false;
    for (const project of this.projects.values()) {
      if (!project.registry.hasPlugins(now)) continue;
      if (latest === undefined) latest = project;
      else {
        several = true;
        // Strictly later only: among equals the earlier project stays first, as the stable sort keeps it.
        if (project.lastActiveAt > latest.lastActiveAt) latest = project;
      }
    }
    return latest && { project: latest, several };
  }

  /** Projects under the first PIN_INDEX_CHARS of each of their path hashes, in insertion order; built when a pin first needs it after a change. */
  private projectsByPinPrefix(): Map<string, Project[]> {
    if (this.pinIndex) return this.pinIndex;
    const index = new Map<string, Project[]>();
    for (const project of this.projects.values()) {
      for (const hash of [project.identity.projectPathHash, project.identity.projectPathHashLegacy]) {
        // A hash shorter than the prefix cannot start with a pin this long.
        if (hash === undefined || hash.length < PIN_INDEX_CHARS) continue;
        const prefix = hash.slice(0, PIN_INDEX_CHARS).toLowerCase();
        const bucket = index.get(prefix);
        if (!bucket) index.set(prefix, [project]);
        else if (bucket.at(-1) !== project) bucket.push(project);
      }
    }
    this.pinIndex = index;
    return index;
  }

  /** A routed call makes its project the most recently active one. */
  touch(project: Project): void {
    project.lastActiveAt = Math.max(project.lastActiveAt + 1, this.now());
  }

  select(sessionId: string, projectKey: string): void {
    this.bounded(this.selections, sessionId, projectKey);
    this.advised.delete(sessionId);
    this.events.emit('projectsChanged', undefined);
  }

  selectedProject(sessionId: string | undefined): string | undefined {
    return sessionId === undefined ? undefined : this.selections.get(sessionId);
  }

  forgetSession(sessionId: string): void {
    this.selections.delete(sessionId);
    this.advised.delete(sessionId);
  }

  pinnedProjects(): PinnedProject[] {
    if (this.currentMode === 'single') return [];
    const live = this.liveProjects();
    const pins = this.pinsAmong(live);
    return live.flatMap((project) => {
      const pin = this.pinIn(pins, project);
      const name = project.identity.projectName;
      return pin ? [{ key: project.key, label: projectLabel(project.identity), pin, ...(name ? { projectName: name } : {}) }] : [];
    });
  }

  routeOf(scope: AgentScope): string | undefined {
    if (this.currentMode === 'single') return undefined;
    const routed = this.resolveQuietly(scope);
    return routed.kind === 'resolved' ? routed.project.key : undefined;
  }

  onChanged(listener: () => void): () => void {
    return this.events.on('projectsChanged', () => listener());
  }

  instances(): InstanceView[] {
    const now = this.now();
    const live = this.liveProjects();
    const pins = this.pinsAmong(live);
    return live.flatMap((project) =>
      project.registry.views(now).map((view) => {
        const identity = this.identities.get(view.connectionId) ?? project.identity;
        const pin = this.pinIn(pins, project);
        return {
          instanceId: identity.instanceId ?? view.connectionId,
          connectionId: view.connectionId,
          role: view.role,
          state: view.state,
          projectKey: project.key,
          label: projectLabel(identity),
          ...(identity.engine ? { engine: identity.engine } : {}),
          ...(identity.projectName ? { projectName: identity.projectName } : {}),
          ...(identity.machineName ? { machineName: identity.machineName } : {}),
          ...(pin ? { pin } : {}),
          connectedAt: view.connectedAt,
          lastActiveAt: project.lastActiveAt,
        };
      }),
    );
  }

  /** The pin that routes to `project` alone among live projects, when it has a path hash. */
  pinOf(project: Project): string | undefined {
    const hash = project.identity.projectPathHash;
    if (!hash) return undefined;
    const others = this.liveProjects().flatMap((p) => (p === project || !p.identity.projectPathHash ? [] : [p.identity.projectPathHash]));
    return pinFor(hash, others);
  }

  /** The pins of `live` projects among each other, for listing them all (`pinOf` each would compare every pair). */
  private pinsAmong(live: readonly Project[]): Map<string, string> {
    return pinsFor(live.flatMap((p) => (p.identity.projectPathHash ? [p.identity.projectPathHash] : [])));
  }

  /** `project`'s pin among the live projects whose `pinsAmong` is `pins`; `project` is one of them. */
  private pinIn(pins: ReadonlyMap<string, string>, project: Project): string | undefined {
    const hash = project.identity.projectPathHash;
    return hash ? pins.get(hash) : undefined;
  }

  /** The project a connection belongs to. */
  projectOf(connectionId: string): Project | undefined {
    return this.byConnection.get(connectionId);
  }

  project(key: string): Project | undefined {
    return this.projects.get(key);
  }

  private createProject(key: string, identity: ProjectIdentity): Project {
    const registry = new PluginRegistry(this.serverVersion);
    const project: Project = { key, registry, identity, lastActiveAt: this.now(), connections: new Set(), unsubscribe: [] };
    const e = registry.events;
    project.unsubscribe.push(
      e.on('pluginConnected', (view) => this.events.emit('pluginConnected', this.withProject(view))),
      e.on('pluginUpdated', (view) => this.events.emit('pluginUpdated', this.withProject(view))),
      e.on('pluginDisconnected', (gone) => this.events.emit('pluginDisconnected', gone)),
      e.on('toolsChanged', () => this.events.emit('toolsChanged', undefined)),
      e.on('promptsChanged', () => this.events.emit('promptsChanged', undefined)),
      e.on('resourcesChanged', () => this.events.emit('resourcesChanged', undefined)),
      e.on('ready', (ready) => this.events.emit('ready', ready)),
      e.on('diagnostic', (d) => this.events.emit('diagnostic', d)),
      e.on('listDegraded', (d) => this.events.emit('listDegraded', d)),
    );
    this.projects.set(key, project);
    this.pinIndex = undefined;
    return project;
  }

  private withProject(view: PluginView): PluginView {
    const project = this.byConnection.get(view.connectionId) ?? [...this.projects.values()].find((p) => p.registry.views(this.now()).some((v) => v.connectionId === view.connectionId));
    if (!project) return view;
    const identity = this.identities.get(view.connectionId) ?? project.identity;
    const pin = this.pinOf(project);
    const info: PluginProjectView = {
      key: project.key,
      label: projectLabel(identity),
      ...(identity.engine ? { engine: identity.engine } : {}),
      ...(identity.projectName ? { projectName: identity.projectName } : {}),
      ...(identity.machineName ? { machineName: identity.machineName } : {}),
      ...(identity.instanceId ? { instanceId: identity.instanceId } : {}),
      ...(pin ? { pin } : {}),
    };
    return { ...view, project: info };
  }

  private forgetConnection(connectionId: string): void {
    const project = this.byConnection.get(connectionId);
    this.byConnection.delete(connectionId);
    project?.connections.delete(connectionId);
  }

  /** A departed connection keeps its identity only while its project still awaits it (for its view). */
  private sweepIdentities(): void {
    const now = this.now();
    const shown = new Set([...this.projects.values()].flatMap((p) => p.registry.views(now).map((v) => v.connectionId)));
    for (const id of this.identities.keys()) if (!this.byConnection.has(id) && !shown.has(id)) this.identities.delete(id);
  }

  private prune(project: Project, now: number): void {
    if (this.currentMode === 'single' || project.connections.size > 0 || project.registry.views(now).length > 0) return;
    for (const off of project.unsubscribe) off();
    this.projects.delete(project.key);
    this.pinIndex = undefined;
    this.events.emit('projectsChanged', undefined);
  }

  private ordered(): Project[] {
    return [...this.projects.values()].sort(byRecency);
  }

  private remember(project: Project): void {
    this.bounded(this.remembered, project.key, project.identity);
  }

  private noMatchMessage(pin: string, live: readonly Project[]): string {
    const known = [...this.remembered.values()].find((identity) => pinMatches(pin, [identity.projectPathHash, identity.projectPathHashLegacy]));
    const others = live.length ? live.map((p) => projectLabel(p.identity)).join(', ') : '(none)';
    const which = known ? `project ${projectLabel(known)} (pin ${pin})` : `the project with pin ${pin}`;
    return `No live instance of ${which} is connected: open that project in its editor. A pin never routes to another project. Connected projects: ${others}.`;
  }

  private ambiguousMessage(pin: string, candidates: ReadonlyArray<{ label: string; pin: string | undefined }>): string {
    const named = candidates.map((c) => (c.pin ? `${c.label} (pin ${c.pin})` : c.label)).join(', ');
    return `The pin ${pin} matches ${candidates.length} connected projects: ${named}. Use the longer pin of the one you mean; a pin never picks among projects.`;
  }

  private selectionGoneMessage(projectKey: string, live: readonly Project[]): string {
    const known = this.remembered.get(projectKey);
    const others = live.length ? live.map((p) => projectLabel(p.identity)).join(', ') : '(none)';
    return `The project this session selected, ${known ? projectLabel(known) : projectKey}, is not connected: open it in its editor, or select another with select_engine_instance. Calls never go to another project in its place. Connected projects: ${others}.`;
  }

  /** Map insertion order doubles as age: the oldest entry goes when the map is full. */
  private bounded<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    map.set(key, value);
    const limit = map === this.remembered ? MAX_REMEMBERED_PROJECTS : MAX_SELECTIONS;
    if (map.size > limit) {
      const oldest = map.keys().next().value;
      if (oldest !== undefined) map.delete(oldest);
    }
  }
}
