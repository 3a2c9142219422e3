import { endOnClosedPipe } from './closedPipe.js';
import { runCli } from './program.js';

endOnClosedPipe(process.stdout, (code) => process.exit(code));
process.exitCode = await runCli(process.argv);
