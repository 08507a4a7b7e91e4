/**
 * `subscriptions/listen` (2026-07-28): one long-lived POST response stream per request, carrying only
 * the change notifications its filter asked for, each tagged with the request's id as the
 * subscription id. It replaces the session revisions' GET stream and resources/subscribe. Resource
 * subscriptions are counted with their owners like a session's, and released when the stream closes.
 */
import type { ServerResponse } from 'node:http';
import { z } from 'zod';
import { JunctionError, type AgentScope, type ResourceSubscription } from '../../contracts/index.js';
import type { Catalogue } from '../catalogue.js';
import type { ContentSource } from '../content-source.js';
import { sseEvent, SseStream } from '../sse-stream.js';
import { META, type ModernRequest } from './envelope.js';

const Filter = z.looseObject({
  toolsListChanged: z.boolean().optional(),
  promptsListChanged: z.boolean().optional(),
  resourcesListChanged: z.boolean().optional(),
  resourceSubscriptions: z.array(z.string()).optional(),
});
const ListenParams = z.looseObject({ notifications: Filter });

export interface ListenOptions {
  catalogue: Catalogue;
  content?: ContentSource;
  /** Streams open at once; more are refused with Overloaded. */
  maxStreams: number;
  /** Resource URIs one stream may watch; more are refused with SubscriptionLimit. */
  maxResourceSubscriptions: number;
}

interface Listening {
  stream: SseStream;
  close(graceful: boolean): void;
}

export class ListenStreams {
  private readonly open = new Set<Listening>();

  constructor(private readonly options: ListenOptions) {}

  /** Validates the request and its filter (throwing the refusal), then holds `res` open as the stream. */
  async serve(request: ModernRequest, scope: AgentScope, res: ServerResponse): Promise<void> {
    const parsed = ListenParams.safeParse(request.params);
    if (!parsed.success) throw new JunctionError('InvalidArguments', 'Invalid params for subscriptions/listen: params.notifications must be an object of the notification types to receive.');
    const wanted = parsed.data.notifications;
    const { catalogue, content } = this.options;
    if (this.open.size >= this.options.maxStreams) throw new JunctionError('Overloaded', `Junction already holds ${this.options.maxStreams} subscriptions/listen streams; close one first.`);
    const uris = [...new Set(wanted.resourceSubscriptions ?? [])];
    if (uris.length > this.options.maxResourceSubscriptions) {
      throw new JunctionError('SubscriptionLimit', `A subscriptions/listen stream may watch ${this.options.maxResourceSubscriptions} resources at most.`, { details: { limit: this.options.maxResourceSubscriptions } });
    }
    const subscriptions = new Map<string, ResourceSubscription>();
    try {
      if (content) for (const uri of uris) subscriptions.set(uri, await content.subscribe(uri, scope));
    } catch (error) {
      for (const s of subscriptions.values()) s.release();
      throw error;
    }
    const tag = { [META.subscriptionId]: request.id };
    // What the server honours: types it cannot deliver (no content source) are left out of the acknowledgment.
    const honoured = {
      ...(wanted.toolsListChanged ? { toolsListChanged: true } : {}),
      ...(content && wanted.promptsListChanged ? { promptsListChanged: true } : {}),
      ...(content && wanted.resourcesListChanged ? { resourcesListChanged: true } : {}),
      ...(content && uris.length ? { resourceSubscriptions: uris } : {}),
    };
    const stream = new SseStream(res, undefined, sseEvent(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: tag, notifications: honoured } })));
    const send = (method: string, params: Record<string, unknown> = {}) => stream.write(sseEvent(JSON.stringify({ jsonrpc: '2.0', method, params: { ...params, _meta: tag } })));
    const offs = [
      honoured.toolsListChanged ? catalogue.onChanged(() => send('notifications/tools/list_changed')) : undefined,
      honoured.promptsListChanged ? content?.onPromptsChanged(() => send('notifications/prompts/list_changed')) : undefined,
      honoured.resourcesListChanged ? content?.onResourcesChanged(() => send('notifications/resources/list_changed')) : undefined,
      subscriptions.size ? content?.onResourceUpdated(({ uri, topic }) => (subscriptions.get(uri)?.topic === topic ? send('notifications/resources/updated', { uri }) : undefined)) : undefined,
    ];
    const listening: Listening = {
      stream,
      close: (graceful) => {
        if (!this.open.delete(listening)) return;
        for (const off of offs) off?.();
        for (const s of subscriptions.values()) s.release();
        subscriptions.clear();
        // A graceful end answers the listen request, so the agent can tell it from a dropped connection.
        if (graceful) stream.end(sseEvent(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { resultType: 'complete', _meta: tag } })));
        else stream.stop();
      },
    };
    this.open.add(listening);
    res.once('close', () => listening.close(false));
    // The agent may have gone while the owners were asked; then no close event is left to come.
    if (res.destroyed || !res.socket || res.socket.destroyed) listening.close(false);
  }

  count(): number {
    return this.open.size;
  }

  close(): void {
    for (const listening of [...this.open]) listening.close(true);
  }
}
