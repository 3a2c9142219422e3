import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker copies the WAL back into the database file. */
export const CHECKPOINT_EVERY_MS = 500;

/** What SQLite answers to a checkpoint: the WAL's frames, and how many are now in the database file. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export interface WalCheckpointer {
  /** Checkpoints now (PASSIVE) and resolves with SQLite's answer. */
  checkpoint(): Promise<CheckpointResult>;
  /** A last checkpoint, then the worker's connection closes. */
  stop(): Promise<void>;
}

/**
 * The worker's code, plain JavaScript (it runs without the TypeScript loader): its own connection to the
 * file, a PASSIVE checkpoint on a timer and on request. PASSIVE never waits for a reader or the writer.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
const checkpoint = () => {
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    return { busy: row.busy, log: row.log, checkpointed: row.checkpointed };
  } catch (error) {
    return { busy: 1, log: -1, checkpointed: -1, error: String(error) };
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message.kind === 'checkpoint') parentPort.postMessage({ id: message.id, result: checkpoint() });
  if (message.kind === 'stop') {
    clearInterval(timer);
    checkpoint();
    db.close();
    parentPort.close();
  }
});
`;

/**
 * SQLite's checkpoints off the request path. With `wal_autocheckpoint = 0` on the server's connections,
 * no commit runs a checkpoint (and its fsync of the database file) on the event loop; this worker thread
 * does, with a connection of its own, every `everyMs`. Commits under `synchronous = NORMAL` do not fsync,
 * so the event loop never waits for the disk.
 */
export function startWalCheckpointer(file: string, everyMs = CHECKPOINT_EVERY_MS): WalCheckpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { file, driver, everyMs } });
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const waiting = new Map<number, (result: CheckpointResult) => void>();
  let next = 0;
  worker.on('message', (message: { id: number; result: CheckpointResult }) => {
    waiting.get(message.id)?.(message.result);
    waiting.delete(message.id);
  });
  // A worker that failed leaves checkpoints to the next start: SQLite keeps every commit in the WAL.
  worker.on('error', () => undefined);
  return {
    checkpoint: () =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, resolve);
        void exited.then(() => reject(new Error('the checkpoint worker has stopped')));
        worker.postMessage({ kind: 'checkpoint', id });
      }),
    async stop() {
      // Held while it stops: a process whose last work is this close would otherwise end before it.
      worker.ref();
      worker.postMessage({ kind: 'stop' });
      await exited;
    },
  };
}
