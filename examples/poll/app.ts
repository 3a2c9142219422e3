import type { IncomingMessage, ServerResponse } from 'node:http';
import { AviaryClient, createApp, type AviaryApp, type MessageUid } from '@aviary/sdk';
import { composeWidget } from './compose.js';

export interface PollOptions {
  appId: string;
  appSecret: string;
  baseUrl: string;
  /** The bot posts the polls and their tallies, on behalf of the person who asked or voted (a bot is in no channel). */
  botToken: string;
}

interface Poll {
  question: string;
  options: string[];
  /** Who voted for which option (one vote each; voting again changes it). */
  votes: Map<string, number>;
  /** The poll's message, whose text is the tally, edited after each vote. */
  messageUid: MessageUid;
  /** The edits of the message, one after the other, so the last one stored shows every vote. */
  edits: Promise<unknown>;
}

/** The poll app as served: its event listener at any path, its compose widget at /widget (and /polls, where the form goes). */
export interface PollApp {
  app: AviaryApp;
  node(req: IncomingMessage, res: ServerResponse): void;
}

/**
 * `/poll Lunch? | Pizza | Sushi` opens the compose widget (the command's action is openWidget to
 * /widget), prefilled with the question and answers; posting it puts the poll in the chat, its text the
 * tally, with a button per answer. Each press counts a vote and edits the poll's message to show the new
 * tally (chat.updateMessage), so the chat holds one message per poll however many vote. Polls live in memory.
 */
export function pollApp(options: PollOptions): PollApp {
  const app = createApp(options);
  const bot = new AviaryClient({ baseUrl: options.baseUrl, token: options.botToken });
  const polls = new Map<string, Poll>();

  const compose = composeWidget(options, async (event, { question, answers }) => {
    const id = `poll-${polls.size + 1}`;
    const votes = new Map<string, number>();
    const { uid } = await bot.chat.sendMessage({
      to: event.chat,
      onBehalfOf: event.userId,
      text: `Poll: ${tally({ question, options: answers, votes })}`,
      attachments: [{ id, title: question, buttons: answers.map((name, n) => ({ id: `vote-${n}`, name, action: { type: 'sendEvent' } })) }],
    });
    polls.set(id, { question, options: answers, votes, messageUid: uid, edits: Promise.resolve() });
  });

  app.action(/^vote-\d+$/, async (event) => {
    const poll = event.name === 'client.pressButton' ? polls.get(event.attachmentId) : undefined;
    if (!poll || event.name !== 'client.pressButton') return { text: 'This poll is over' };
    const choice = Number(event.buttonId.slice('vote-'.length));
    if (!(choice in poll.options)) return { text: 'No such answer' };
    poll.votes.set(event.userId, choice);
    // The text is read when the edit goes, after the edits before it: the last edit shows every vote so far.
    // Left out, `attachments` stays as it is: the buttons remain.
    const edit = poll.edits.then(() => bot.chat.updateMessage({ messageUid: poll.messageUid, text: `Poll: ${tally(poll)}` }));
    poll.edits = edit.catch(() => undefined);
    await edit;
    return { text: `Voted ${poll.options[choice]}` };
  });

  return {
    app,
    node(req, res) {
      const path = new URL(req.url ?? '/', 'http://poll.invalid').pathname;
      const fail = (error: unknown) => (console.error(error), res.headersSent || res.writeHead(500).end());
      if (req.method === 'GET' && path === '/widget') return void compose.show(req, res).catch(fail);
      if (req.method === 'POST' && path === '/polls') return void compose.submit(req, res).catch(fail);
      app.listener.node(req, res);
    },
  };
}

/** "Lunch? Pizza 2 · Sushi 1" */
export function tally(poll: Pick<Poll, 'question' | 'options' | 'votes'>): string {
  const counts = poll.options.map(() => 0);
  for (const choice of poll.votes.values()) counts[choice] = (counts[choice] ?? 0) + 1;
  return `${poll.question} ${poll.options.map((name, n) => `${name} ${counts[n]}`).join(' · ')}`;
}
