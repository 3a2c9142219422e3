import type { UsersTable } from '../../store/schema.js';

/** Who is in the demo team; the first person is its admin and the demo app's developer. */
export interface DemoPersonSpec {
  firstName: string;
  lastName: string;
  email: string;
  role: UsersTable['role'];
  timezone: string;
}

/** One line of an exchange: who speaks (an index into the chat's people) and what they say. */
export type DemoLine = readonly [speaker: number, text: string];

export interface DemoChatSpec {
  /** Indexes into `demoPeople`; for a channel the first one created it and moderates it. */
  people: readonly number[];
  /** How many messages to spread over the past days; the exchanges repeat until there are this many. */
  messageCount: number;
  exchanges: readonly (readonly DemoLine[])[];
}

export interface DemoChannelSpec extends DemoChatSpec {
  name: string;
  purpose: string;
  type: 'public' | 'private';
}

export const demoTeamName = 'Aviary Demo';
export const demoAppName = 'Aviary Demo';

export const demoPeople: readonly DemoPersonSpec[] = [
  { firstName: 'Maya', lastName: 'Okafor', email: 'maya@example.com', role: 'admin', timezone: 'Europe/Berlin' },
  { firstName: 'Lucas', lastName: 'Silva', email: 'lucas@example.com', role: 'user', timezone: 'America/Sao_Paulo' },
  { firstName: 'Priya', lastName: 'Raman', email: 'priya@example.com', role: 'user', timezone: 'Asia/Kolkata' },
  { firstName: 'Jonas', lastName: 'Berg', email: 'jonas@example.com', role: 'user', timezone: 'Europe/Oslo' },
  { firstName: 'Emma', lastName: 'Laurent', email: 'emma@example.com', role: 'user', timezone: 'Europe/Paris' },
];

export const demoChannels: readonly DemoChannelSpec[] = [
  {
    name: 'general',
    purpose: 'Company-wide announcements and chatter',
    type: 'public',
    people: [0, 1, 2, 3, 4],
    messageCount: 90,
    exchanges: [
      [[0, 'Good morning everyone! Reminder: the all-hands is Thursday at 15:00 CET.'], [4, 'Thanks Maya, I’ll have the launch numbers ready by then.'], [1, '👍']],
      [[3, 'Who took the last oat milk? 🥲'], [1, 'Guilty. A new carton is in the cupboard next to the mugs.'], [3, 'Hero.']],
      [[2, 'Heads up: staging will be down for maintenance from 18:00 to 19:00 UTC.'], [0, 'Thanks for the warning!']],
      [[4, 'We were mentioned in this week’s self-hosting newsletter 🎉'], [2, 'Nice! Can you share the link?'], [4, 'Posted it in #launch-planning, it goes public on Friday.']],
      [[1, 'Lunch order goes out at 12:30, anyone joining?'], [3, 'Count me in, the usual noodles please.'], [2, 'Me too!']],
      [[0, 'Welcome to the demo workspace. Try sending a message to the Aviary Demo bot!'], [1, 'Already did, it’s surprisingly chatty.']],
      [[3, 'The new office plants arrived. Please don’t water the cactus every day, Lucas.'], [1, 'It looked thirsty!'], [4, '🌵']],
      [[2, 'Friendly reminder to put next month’s time off in the calendar.'], [0, 'Done ✅'], [3, 'Done.']],
      [[4, 'Any recommendations for a podcast about open source business models?'], [2, 'The Changelog has a few good episodes on that.'], [1, 'Seconded.']],
      [[0, 'Happy Friday! Great week everyone, the beta feedback has been really positive.'], [3, '🎉'], [2, 'Thanks all, enjoy the weekend.']],
    ],
  },
  {
    name: 'engineering',
    purpose: 'Building Aviary: reviews, deploys and incidents',
    type: 'public',
    // Priya, Lucas, Jonas, Maya
    people: [2, 1, 3, 0],
    messageCount: 85,
    exchanges: [
      [[0, 'Morning! The rate limiter PR is up, could someone review?'], [1, 'On it after standup.'], [1, 'Left a few comments, mostly naming. Looks good otherwise.'], [0, 'Thanks, addressed them.']],
      [[1, 'The retry schedule test is flaky on PostgreSQL again.'], [0, 'That one uses real timers, right? Let’s inject a clock.'], [1, 'Yes, switching it to the fake clock now.']],
      [[2, 'Updated designs for the composer: slash commands get an autocomplete popover.'], [0, 'Love it. How does it behave on mobile?'], [2, 'A full-width sheet above the keyboard, see the second frame.']],
      [[3, 'How are we looking for the beta cut on Wednesday?'], [0, 'Two open bugs, both small. We should make it.'], [1, 'The outbox migration is merged already.']],
      [[1, 'TIL SQLite in WAL mode lets the CLI and the server write to the same file side by side.'], [0, 'As long as busy_timeout is set 🙂']],
      [[0, 'Deploying 0.4.2 to staging now.'], [0, 'Deploy done, smoke tests green.'], [3, 'Thanks Priya!']],
      [[2, 'Could ServiceML buttons get a bit more padding? They look cramped in the sidebar.'], [1, 'Sure, I’ll bump it to 8px.'], [2, 'Perfect.']],
      [[1, 'The incident review for Tuesday’s webhook delays is in the shared doc.'], [0, 'Good write-up. A per-app queue would have contained it.'], [3, 'Can we prioritise that next sprint?'], [0, 'Yes, adding it to the plan.']],
      [[0, 'Reminder: pairing on the event signing code at 14:00.'], [1, 'I’ll bring the test vectors.']],
      [[2, 'Is avatar upload working on staging? I get a 413.'], [1, 'The body limit is 1 MiB, the image was probably larger. I’ll resize on the client.']],
    ],
  },
  {
    name: 'launch-planning',
    purpose: 'Planning the public launch',
    type: 'private',
    // Maya, Emma, Priya
    people: [0, 4, 2],
    messageCount: 40,
    exchanges: [
      [[0, 'Launch date proposal: the 14th. Thoughts?'], [1, 'Works for marketing, the blog post can go out that morning.'], [2, 'Fine for engineering if the beta cut goes smoothly.']],
      [[1, 'The announcement draft is ready for review.'], [0, 'Reading now. The intro is great; let’s shorten the feature list.'], [1, 'Will do.']],
      [[2, 'We should settle the pricing page before launch.'], [0, 'Self-hosted stays free. Let’s discuss hosted tiers on Monday.']],
      [[1, 'The press list is down to twelve outlets; embargoed briefings go out next week.'], [0, 'Perfect, keep me in copy.']],
      [[0, 'Can we get three customer quotes for the launch page?'], [1, 'I have two already and I’m chasing the third.'], [2, 'I can ask the university pilot team.']],
    ],
  },
];

/** A direct chat between two people: fifteen messages, its exchanges repeated. */
const directChat = (people: readonly [number, number], exchanges: DemoChatSpec['exchanges']): DemoChatSpec => ({ people, messageCount: 15, exchanges });

export const demoDirectChats: readonly DemoChatSpec[] = [
  directChat([0, 2], [
    [[0, 'Do you have ten minutes to talk about the hiring plan?'], [1, 'Sure, after lunch?'], [0, 'Great, I’ll send an invite.']],
    [[1, 'The beta feedback doc is ready, I highlighted the top five themes.'], [0, 'Thank you, this is super useful.']],
    [[0, 'How is Lucas settling in?'], [1, 'Really well, he already shipped two fixes.']],
  ]),
  directChat([1, 3], [
    [[0, 'Can you send me the export of the new icons?'], [1, 'Sure, SVGs coming your way.'], [0, 'Thanks!']],
    [[1, 'Coffee?'], [0, 'Yes, in five minutes.']],
    [[0, 'Is the dark mode palette final?'], [1, 'Almost, one more pass on the contrast of secondary text.']],
  ]),
  directChat([4, 0], [
    [[0, 'Quick one: can I use the new logo in the newsletter already?'], [1, 'Yes, go ahead.']],
    [[1, 'The launch video looks fantastic.'], [0, 'Thank you! The agency did a great job.']],
    [[0, 'I booked the big meeting room for the launch retro.'], [1, '👍']],
  ]),
];

export const demoBotGreeting = (firstName: string): string =>
  `Hi ${firstName}! I’m the ${demoAppName} bot. Messages you send me reach the app as chat.receiveMessage events.`;
