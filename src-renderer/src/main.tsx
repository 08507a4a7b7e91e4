import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { createChannel } from './client/channel.js';
import { useConsole } from './store/store.js';
import './styles.css';

const store = useConsole.getState();
store.connect(createChannel((status) => useConsole.getState().setStatus(status)));

const root = document.getElementById('root');
if (root) {
  const reactRoot = createRoot(root);
  // As a transition the first render is done in slices that yield to the browser, not in one long task.
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}
