import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { createChannel } from './client/channel.js';
import { useConsole } from './store/store.js';
import './styles.css';

const store = useConsole.getState();
store.connect(createChannel((status) => useConsole.getState().setStatus(status)));

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
