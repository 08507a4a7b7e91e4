/**
 * Child process of the crash test: commits the crash transaction through a real journal and kills
 * itself with SIGKILL inside the hook named on the command line. Exits 0 only if that point never came.
 */
import { createJournal } from '../../../src-main/recovery/index.js';
import { crashTransaction } from './crash-transaction.js';

const [stateDir, workspace, killPoint] = process.argv.slice(2);
if (!stateDir || !workspace || !killPoint) {
  console.error('usage: crash-child <stateDir> <workspace> <killPoint>');
  process.exit(2);
}

const journal = createJournal({
  stateDir,
  instanceId: `crash-child-${process.pid}`,
  hooks: {
    at(point) {
      if (point === killPoint) process.kill(process.pid, 'SIGKILL');
    },
  },
});
await journal.open();
await journal.commit(crashTransaction(workspace));
await journal.close();
