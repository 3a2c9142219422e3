import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServeOptions } from './fixtures/serveWithEvents.js';

const fixture = fileURLToPath(new URL('./fixtures/serveWithEvents.ts', import.meta.url));
const serverPackage = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Resolves once the process's delivery worker has done all it would do now, every attempt recorded. */
  idle(): Promise<void>;
  /** Sends the signal and waits for the process to be gone. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Starts a real server process with its delivery worker on the given store, and waits until it listens. */
export async function spawnServerProcess(options: ServeOptions): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, JSON.stringify(options)], {
    cwd: serverPackage,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    // A bound, not a wait: on a busy machine tsx compiling the server takes a while. A process that did not
    // start is killed, so that it cannot outlive the test.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server process did not start in time: ${stderr}`));
    }, 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server process exited (${code}) before listening: ${stderr}`));
    });
  });
  return {
    child,
    url,
    idle: () =>
      new Promise<void>((resolve, reject) => {
        const answered = (message: unknown) => message === 'idle' && (child.off('message', answered), child.off('exit', gone), resolve());
        const gone = () => reject(new Error(`the server process exited before it was idle: ${stderr}`));
        child.on('message', answered).once('exit', gone);
        child.send('idle');
      }),
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}
