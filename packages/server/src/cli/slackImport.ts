import { fileStorageFor } from '../files/storage.js';
import { importSlack, type SlackImportSummary } from '../core/transfer/slack/importSlack.js';
import type { AdminContext, CommandOutput } from './adminCommand.js';
import { CliError } from './errors.js';
import { requireText } from './validate.js';

/** `aviary team import --slack DIR`: what was mapped and what was skipped, said exactly (docs/operations.md). */
export async function importSlackCommand(admin: AdminContext, dir: string, flags: { team?: string; teamName?: string }): Promise<CommandOutput> {
  if (flags.team !== undefined && flags.teamName !== undefined) throw new CliError('InvalidUsage', 'Give --team (an existing team) or --team-name (a new one), not both.');
  const teamName = flags.teamName !== undefined ? requireText('--team-name', flags.teamName) : 'Imported from Slack';
  const files = { storage: fileStorageFor(admin.config), maxFileBytes: admin.config.files.maxFileBytes };
  const summary = await importSlack(admin.db, dir, { teamId: flags.team, teamName, files, now: admin.now() });
  return { json: summary, text: summaryText(summary) };
}

function summaryText(s: SlackImportSummary): string {
  const skippedSubtypes = Object.entries(s.skipped.subtypes).map(([subtype, count]) => `${count} ${subtype}`).join(', ');
  return [
    `Imported the Slack export into ${s.createdTeam ? 'the new team' : 'team'} ${s.teamId}:`,
    `  people: ${s.people.matched} matched by email, ${s.people.created} created (${s.people.withoutEmail} of them without an email, deactivated: bots, deleted users).`,
    `  ${s.people.withoutPassword.length} created people have no password and cannot sign in until they are given one:${s.people.withoutPassword.length > 0 ? ` ${s.people.withoutPassword.join(', ')}` : ''}`,
    `  ${s.channels} channels (public and private; group DMs as private channels), ${s.directChats} direct chats.`,
    `  ${s.messages} messages, with their times; ${s.edited} with their edit time; mentions, channel links and links converted.`,
    `  ${s.threadReplies} thread replies imported as replies in the thread of their parent (thread_broadcast ones also shown in the channel).`,
    `  ${s.filesImported} shared files stored as files of their message (their bytes were in the export).`,
    `  ${s.filesNamed} shared files named on a line of their message (the export only links to them, or they were refused: too large, or not the type their name says).`,
    `  ${s.reactions} reactions (Slack's emoji names as native emoji).`,
    `  Not imported: ${s.reactionsSkipped} reactions (a team's custom emoji, or by someone not in users.json); ${skippedSubtypes || 'no'} channel events (joins, topics…); ` +
      `${s.skipped.unknownSender} messages from senders not in users.json (such as integrations' bot messages); ${s.skipped.empty} empty messages; ` +
      `${s.skipped.unknownConversation} messages of direct chats whose two people are not both known.`,
  ].join('\n');
}
