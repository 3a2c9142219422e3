import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { endOnClosedPipe } from '../../src/cli/closedPipe.js';
import { repoRoot } from './cli.js';

describe('a reader that goes away', () => {
  it('ends the command with 0 on EPIPE, and throws any other error of the stream', () => {
    const stream = new EventEmitter();
    const exits: number[] = [];
    endOnClosedPipe(stream, (code) => exits.push(code));
    stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    expect(exits).toEqual([0]);
    expect(() => stream.emit('error', Object.assign(new Error('disk full'), { code: 'ENOSPC' }))).toThrow('disk full');
  });

  it('lets `aviary … | head` end quietly: a closed stdout is no crash', async () => {
    // `aviary --help` run with its stdout closed from the start: every write meets EPIPE.
    const child = spawn(process.execPath, [join(repoRoot, 'packages/server/bin/aviary.js'), '--help'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).not.toMatch(/EPIPE/);
    expect(code).toBe(0);
  });
});
