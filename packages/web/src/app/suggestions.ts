import { broadcastWords } from '@aviary/protocol';
import { parseServiceML } from '@aviary/serviceml';
import type { App, Person } from '../api/client.js';
import { fullName } from './format.js';

/**
 * What the composer offers while the person types: people after `@` (in a channel, `@channel` and
 * `@here` too), emoji after a `:` word of two letters or more, slash commands after a leading `/`.
 */
export type Suggestion =
  | { kind: 'person'; id: string; label: string; detail?: string | undefined }
  | { kind: 'broadcast'; id: string; label: string; detail?: string | undefined }
  | { kind: 'emoji'; id: string; label: string; detail?: string | undefined; emoji: string }
  | { kind: 'command'; id: string; label: string; detail?: string | undefined };

/** The emoji whose shortcodes start with a prefix (app/emoji/shortcodes.ts, loaded when first needed). */
export type ShortcodeLookup = (prefix: string, limit: number) => Array<{ code: string; emoji: string }>;

const broadcastDetail: Record<(typeof broadcastWords)[number], string> = {
  channel: 'Notify everyone in this channel',
  here: 'Notify everyone here now',
};

/** The word being typed at the caret, when it starts with `@` or `:` (anywhere) or `/` (at the very start). */
export function tokenAtCaret(text: string, caret: number): { kind: '@' | ':' | '/'; query: string; start: number } | undefined {
  const before = text.slice(0, caret);
  const slash = /^\/([\w-]*)$/.exec(before);
  if (slash) return { kind: '/', query: slash[1]!, start: 0 };
  // After anything but a letter or digit ("(@ann", "**@ann"), so that an address (ann@example.com) is no mention.
  const at = /(^|[^\p{L}\p{N}@])@([^\s@]*)$/u.exec(before);
  if (at) return { kind: '@', query: at[2]!, start: before.length - at[2]!.length - 1 };
  const colon = /(^|\s):([a-z0-9_+-]{2,})$/.exec(before);
  if (colon) return { kind: ':', query: colon[2]!, start: before.length - colon[2]!.length - 1 };
  return undefined;
}

const MAX_SUGGESTIONS = 8;

export function suggestionsFor(token: NonNullable<ReturnType<typeof tokenAtCaret>>, people: Person[], apps: App[], inChannel = false, shortcodes?: ShortcodeLookup): Suggestion[] {
  const query = token.query.toLowerCase();
  if (token.kind === ':') return (shortcodes?.(query, MAX_SUGGESTIONS) ?? []).map(({ code, emoji }) => ({ kind: 'emoji', id: code, label: `${emoji} :${code}:`, emoji }));
  if (token.kind === '@') {
    const named: Suggestion[] = people
      .filter((person) => fullName(person).toLowerCase().split(/\s+/).some((word) => word.startsWith(query)) || fullName(person).toLowerCase().startsWith(query))
      .map((person) => ({ kind: 'person', id: person.id, label: fullName(person), detail: person.isBot ? 'bot' : undefined }));
    // In a channel, after the people (and kept in the list however many people match).
    const broadcasts: Suggestion[] = inChannel
      ? broadcastWords.filter((word) => word.startsWith(query)).map((word) => ({ kind: 'broadcast', id: `@${word}`, label: `@${word}`, detail: broadcastDetail[word] }))
      : [];
    return [...named.slice(0, MAX_SUGGESTIONS - broadcasts.length), ...broadcasts];
  }
  // The first app installed wins a name two apps define; the server decides, the list shows each name once.
  const seen = new Set<string>();
  const commands: Suggestion[] = [];
  for (const app of apps) {
    if (!app.installed || app.disabledByUser || app.disabledByTeam) continue;
    for (const command of app.integrations.slashCommands) {
      if (seen.has(command.name) || !command.name.toLowerCase().startsWith(query)) continue;
      seen.add(command.name);
      commands.push({ kind: 'command', id: `${app.id}/${command.name}`, label: `/${command.name}`, detail: command.description ?? app.name });
    }
  }
  return commands.slice(0, MAX_SUGGESTIONS);
}

export interface Mention {
  userId: string;
  label: string;
}

const escapePattern = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The people named with `@` and their name typed out rather than picked from the list, as Slack
 * resolves them too: a full name, or a first name only one person of the roster has, whole (not the
 * start of a longer word, nor inside an email address) and in any case. Bots are left out.
 */
export function typedMentions(text: string, people: Person[], picked: Mention[]): Mention[] {
  const lower = text.toLowerCase();
  const humans = people.filter((person) => !person.isBot);
  const firstNames = new Map<string, number>();
  for (const person of humans) firstNames.set(person.firstName.toLowerCase(), (firstNames.get(person.firstName.toLowerCase()) ?? 0) + 1);
  const found: Mention[] = [];
  for (const person of humans) {
    if (picked.some((mention) => mention.userId === person.id)) continue;
    const names = [fullName(person), ...(firstNames.get(person.firstName.toLowerCase()) === 1 ? [person.firstName] : [])];
    for (const name of names) {
      if (name.trim() === '' || !lower.includes(`@${name.toLowerCase()}`)) continue;
      const match = new RegExp(`(?<![\\p{L}\\p{N}._%+-])@(${escapePattern(name)})(?![\\p{L}\\p{N}])`, 'iu').exec(text);
      if (match) {
        found.push({ userId: person.id, label: match[1]! });
        break;
      }
    }
  }
  return found;
}

const escapeMarkup = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The ServiceML of a message whose text names people picked with `@`: each `@Name` still in the text
 * becomes `<user userId>`, so readers see the person's current name. Without one, plain text is sent.
 */
export function mentionMarkup(text: string, mentions: Mention[]): string | undefined {
  const present = mentions.filter((mention) => text.includes(`@${mention.label}`));
  if (present.length === 0) return undefined;
  const labels = [...new Set(present.map((mention) => mention.label))].sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`@(${labels.map(escapePattern).join('|')})`, 'g');
  let markup = '';
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const mention = present.find((candidate) => candidate.label === match[1])!;
    markup += escapeMarkup(text.slice(last, match.index)) + `<user userId="${mention.userId}">@${escapeMarkup(mention.label)}</user>`;
    last = match.index + match[0].length;
  }
  markup += escapeMarkup(text.slice(last));
  return `<serviceml>${markup.replace(/\n/g, '<br/>')}</serviceml>`;
}

/**
 * The people a message of the composer's making names (mentionMarkup's inverse), so that it is shown as
 * the Markdown of its text with those people marked, and edited keeping them. Its ServiceML must hold
 * only text, line breaks and `<user>` elements whose text is `@` and a label, and say exactly the
 * message's text; any other ServiceML (an app's, or one written by hand) gives undefined, and is shown
 * as ServiceML.
 */
export function composerMentions(serviceml: string, text: string): Mention[] | undefined {
  const parsed = parseServiceML(serviceml);
  if (!parsed.ok) return undefined;
  const mentions: Mention[] = [];
  let said = '';
  for (const node of parsed.ast.children) {
    if (node.type === 'text') said += node.value;
    else if (node.name === 'br') said += '\n';
    else if (node.name === 'user' && node.children.length === 1 && node.children[0]!.value.startsWith('@')) {
      mentions.push({ userId: node.attributes.userId, label: node.children[0]!.value.slice(1) });
      said += node.children[0]!.value;
    } else return undefined;
  }
  return said === text ? mentions : undefined;
}
