import { createApp, type AviaryApp } from '@aviary/sdk';

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
}

/**
 * `/poll Lunch? | Pizza | Sushi` posts the question with a button per answer; each press counts a vote
 * and posts the tally as a new message (Aviary has no method to edit a message, so the tally is not an
 * update of the poll's message). Polls live in memory.
 */
export function pollApp(options: PollOptions): AviaryApp {
  const app = createApp(options);
  const polls = new Map<string, Poll>();

  app.command('poll', async (event, ctx) => {
    const [question, ...answers] = event.text.split('|').map((part) => part.trim()).filter(Boolean);
    if (!question || answers.length < 2 || answers.length > 10) return { text: 'Usage: /poll Question | answer | answer (2 to 10 answers)' };
    const id = `poll-${polls.size + 1}`;
    polls.set(id, { question, options: answers, votes: new Map() });
    await ctx.bot?.chat.sendMessage({
      to: event.chat,
      onBehalfOf: event.userId,
      text: `Poll: ${question}`,
      attachments: [{ id, title: question, buttons: answers.map((name, n) => ({ id: `vote-${n}`, name, action: { type: 'sendEvent' } })) }],
    });
    return { text: 'Poll posted' };
  });

  app.action(/^vote-\d+$/, async (event, ctx) => {
    const poll = event.name === 'client.pressButton' ? polls.get(event.attachmentId) : undefined;
    if (!poll || event.name !== 'client.pressButton') return { text: 'This poll is over' };
    const choice = Number(event.buttonId.slice('vote-'.length));
    if (!(choice in poll.options)) return { text: 'No such answer' };
    poll.votes.set(event.userId, choice);
    await ctx.bot?.chat.sendMessage({ to: event.chat, onBehalfOf: event.userId, text: tally(poll) });
    return { text: `Voted ${poll.options[choice]}` };
  });
  return app;
}

/** "Lunch? Pizza 2 · Sushi 1" */
export function tally(poll: Pick<Poll, 'question' | 'options' | 'votes'>): string {
  const counts = poll.options.map(() => 0);
  for (const choice of poll.votes.values()) counts[choice] = (counts[choice] ?? 0) + 1;
  return `${poll.question} ${poll.options.map((name, n) => `${name} ${counts[n]}`).join(' · ')}`;
}
