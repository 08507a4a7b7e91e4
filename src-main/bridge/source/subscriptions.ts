/**
 * Agents' resource subscriptions, counted across sessions per topic (the project and the URI: the same
 * URI in two projects is two topics). The owning plugin hears of the first subscriber and the last
 * release (RunSubscribeResource / RunUnsubscribeResource, for plugins with the `subscriptions` feature),
 * and a plugin that connects, reconnects or changes its resources hears of the topics it now owns.
 */
import type { AgentScope, ResourceSubscription } from '../../contracts/index.js';
import { JunctionError } from '../../contracts/index.js';
import type { TypedEmitter } from '../../shared/index.js';
import type { Project } from '../projects/index.js';
import type { BridgeEvents } from './events.js';
import { askPlugin } from './plugin-answers.js';
import type { SourceContext } from './plugin-port.js';
import { resourceOwnerAmong } from './resources.js';
import { contentOwners, refusesFallThrough, unresolvedError } from './scope.js';

function topicOf(projectKey: string, uri: string): string {
  return `${projectKey}\n${uri}`;
}

export class ResourceSubscriptions {
  /** Agent sessions subscribed, per topic. */
  private readonly subscribers = new Map<string, number>();
  /** Per subscribed topic, the plugin connection that was told it has subscribers. */
  private readonly toldOwner = new Map<string, string>();

  constructor(
    private readonly context: SourceContext,
    private readonly events: TypedEmitter<BridgeEvents>,
  ) {}

  /** Counts one more subscribed session for the resource in the agent's project; the owner hears of the first. Throws `ResourceNotFound` (or the session's project error). */
  async subscribe(uri: string, scope?: AgentScope): Promise<ResourceSubscription> {
    const { projects, port, settings } = this.context;
    const resolution = projects.resolveQuietly(scope);
    if (resolution.kind !== 'resolved' && refusesFallThrough(resolution)) throw unresolvedError(resolution);
    const project = resolution.kind === 'resolved' ? resolution.project : undefined;
    const owner = project && resourceOwnerAmong(contentOwners(this.context, scope, project.registry.active()), uri);
    if (!project || !owner) throw new JunctionError('ResourceNotFound', `No connected plugin publishes the resource '${uri}'.`);
    const topic = topicOf(project.key, uri);
    const count = (this.subscribers.get(topic) ?? 0) + 1;
    this.subscribers.set(topic, count);
    let held = true;
    const subscription: ResourceSubscription = {
      topic,
      release: () => {
        if (!held) return;
        held = false;
        this.release(topic, project, uri);
      },
    };
    if (count > 1 || !owner.handshake?.features.includes('subscriptions')) return subscription;
    this.toldOwner.set(topic, owner.connectionId);
    try {
      const what = `subscription to '${uri}'`;
      await askPlugin(() => port.setSubscription(owner.connectionId, uri, true, settings.timeoutMs), what, settings.timeoutMs);
    } catch (error) {
      subscription.release();
      throw error;
    }
    return subscription;
  }

  /** A plugin said one of its resources changed: the topic is its project's, so other projects' subscribers stay quiet. */
  resourceUpdated(connectionId: string, uri: string): void {
    const project = this.context.projects.projectOf(connectionId);
    if (project) this.events.emit('resourceUpdated', { uri, topic: topicOf(project.key, uri) });
  }

  /** Subscribed topics, for leak checks. */
  count(): number {
    return this.subscribers.size;
  }

  /**
   * A plugin that connected, reconnected or changed its resources now owns some subscribed topics of its
   * project: it hears of each one it was not told about yet, as it would have from the first subscriber.
   * Agents' subscriptions outlive a plugin restart; without this the new connection never sends updates.
   */
  resubscribe(connectionId: string): void {
    const { projects, port, settings } = this.context;
    const project = projects.projectOf(connectionId);
    if (!project || this.subscribers.size === 0) return;
    const prefix = topicOf(project.key, '');
    for (const topic of this.subscribers.keys()) {
      if (!topic.startsWith(prefix) || this.toldOwner.get(topic) === connectionId) continue;
      const uri = topic.slice(prefix.length);
      const owner = resourceOwnerAmong(project.registry.active(), uri);
      if (owner?.connectionId !== connectionId || !owner.handshake?.features.includes('subscriptions')) continue;
      this.toldOwner.set(topic, connectionId);
      port.setSubscription(connectionId, uri, true, settings.timeoutMs).catch(() => {
        // Not told after all: the next update of this plugin tries again.
        if (this.toldOwner.get(topic) === connectionId) this.toldOwner.delete(topic);
      });
    }
  }

  /** Counts one session fewer on the topic; the project's owner hears when none is left. */
  private release(topic: string, project: Project, uri: string): void {
    const count = (this.subscribers.get(topic) ?? 0) - 1;
    if (count > 0) {
      this.subscribers.set(topic, count);
      return;
    }
    this.subscribers.delete(topic);
    this.toldOwner.delete(topic);
    const owner = resourceOwnerAmong(project.registry.active(), uri);
    const { port, settings } = this.context;
    if (owner?.handshake?.features.includes('subscriptions')) port.setSubscription(owner.connectionId, uri, false, settings.timeoutMs).catch(() => undefined);
  }
}
