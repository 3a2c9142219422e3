import type { Command } from 'commander';
import { reindexMessages } from '../core/search/reindex.js';
import { adminCommand, runAdminCommand, type OutputFlags, type StoreFlags } from './adminCommand.js';
import { CliError } from './errors.js';

type ReindexFlags = StoreFlags & OutputFlags & { batch: string; restart?: boolean };

/** `aviary search reindex` (docs/search.md): the index for messages from before the upgrade. */
export function registerSearchCommands(program: Command): void {
  const search = program.command('search').description('Manage the search index.');
  adminCommand(search, 'reindex', 'Index the messages the search index does not hold yet (those from before the upgrade), in batches, while the server runs; resumes where it stopped.')
    .option('--batch <n>', 'messages per transaction, 1 to 10000', '1000')
    .option('--restart', 'start again from the oldest message instead of where the last run stopped')
    .action((flags: ReindexFlags) =>
      runAdminCommand(flags, async ({ db }) => {
        const batchSize = Number(flags.batch);
        if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
          throw new CliError('InvalidUsage', `--batch must be a whole number from 1 to 10000, not "${flags.batch}".`);
        }
        const done = await reindexMessages(db, {
          batchSize,
          restart: flags.restart === true,
          // On stderr: with --json, stdout holds exactly the one result object.
          onBatch: (p) => process.stderr.write(`Looked at ${p.scanned} of ${p.total} messages, indexed ${p.indexed} (up to ${p.position}).\n`),
        });
        return {
          json: { scanned: done.scanned, indexed: done.indexed, position: done.position ?? null },
          text: `Search index complete: looked at ${done.scanned} messages and indexed the ${done.indexed} it lacked.`,
        };
      }),
    );
}
