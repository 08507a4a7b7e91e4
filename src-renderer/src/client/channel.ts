/** Picks the transport: Electron's preload bridge when present, else the page's WebSocket. The views never know. */
import type { ControlChannel } from '../../../src-main/contracts/index.js';
import { controlSocketUrl, createSocketChannel } from './socket-channel.js';

declare global {
  interface Window {
    junction?: ControlChannel;
  }
}

export function createChannel(onStatus: (status: 'connecting' | 'open' | 'closed') => void): ControlChannel {
  if (window.junction) {
    onStatus('open');
    return window.junction;
  }
  return createSocketChannel(controlSocketUrl(window.location), onStatus);
}
