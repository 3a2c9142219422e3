import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Child {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Runs a bench server in its own process (its own core), resolving once it prints its URL; `env` adds to
 * (or, with '', blanks) the bench's own environment.
 */
export async function startChild(script: string, args: string[], env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Child> {
  const path = fileURLToPath(new URL(script, import.meta.url));
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before listening`)));
  });
  return {
    url,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
