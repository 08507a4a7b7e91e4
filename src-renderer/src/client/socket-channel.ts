/**
 * The browser transport: the `/control` WebSocket of the page's own origin (the cookie set when the
 * console was opened authenticates it). Reconnects with backoff; every new connection starts with a snapshot.
 */
import type { ControlChannel, ControlCommandName, ControlCommands, ControlReplyMessage, ControlResult, ControlWireFrame } from '../../../src-main/contracts/index.js';

type Pending = (result: ControlResult<unknown>) => void;

export function controlSocketUrl(location: Location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/control`;
}

function isReply(message: unknown): message is ControlReplyMessage {
  return typeof message === 'object' && message !== null && 'result' in message && 'id' in message;
}

function isFrame(message: unknown): message is ControlWireFrame {
  if (typeof message !== 'object' || message === null || !('type' in message)) return false;
  return message.type === 'snapshot' || message.type === 'event' || message.type === 'events' || message.type === 'snapshotCalls';
}

export function createSocketChannel(url: string, onStatus: (status: 'connecting' | 'open' | 'closed') => void): ControlChannel {
  const listeners = new Set<(frame: ControlWireFrame) => void>();
  const pending = new Map<number, Pending>();
  let socket: WebSocket | undefined;
  let nextId = 1;
  let retryMs = 250;
  let stopped = false;

  const failAll = (): void => {
    for (const resolve of pending.values()) resolve({ ok: false, error: { code: 'PluginUnavailable', message: 'The console connection closed before the command was answered.' } });
    pending.clear();
  };

  const open = (): void => {
    onStatus('connecting');
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      retryMs = 250;
      onStatus('open');
    };
    ws.onmessage = (message: MessageEvent<string>) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(message.data);
      } catch {
        return;
      }
      if (isFrame(parsed)) {
        for (const listener of listeners) listener(parsed);
      } else if (isReply(parsed) && typeof parsed.id === 'number') {
        pending.get(parsed.id)?.(parsed.result);
        pending.delete(parsed.id);
      }
    };
    ws.onclose = () => {
      failAll();
      onStatus('closed');
      if (stopped) return;
      setTimeout(open, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    };
  };

  return {
    invoke<C extends ControlCommandName>(command: C, args: ControlCommands[C]['args']): Promise<ControlResult<ControlCommands[C]['result']>> {
      return new Promise((resolve) => {
        if (!socket || socket.readyState !== WebSocket.OPEN) {
          resolve({ ok: false, error: { code: 'PluginUnavailable', message: 'The console is not connected to Junction; retrying.', next: { kind: 'retryLater', tools: [] } } });
          return;
        }
        const id = nextId++;
        pending.set(id, resolve as Pending);
        socket.send(JSON.stringify({ id, command, args }));
      });
    },
    onFrame(listener) {
      listeners.add(listener);
      if (!socket) open();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          stopped = true;
          socket?.close();
        }
      };
    },
  };
}
