/**
 * A reader that goes away before the output ends (`aviary events tail --json | head -n 1`) ends the
 * command quietly, as other command-line tools do, instead of an unhandled EPIPE and its stack trace.
 * Any other error of the stream is thrown as before.
 */
export function endOnClosedPipe(stream: NodeJS.EventEmitter, exit: (code: number) => void): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    exit(0);
  });
}
