import type { Team, User } from '../api/client';

/** Who is signed in, to which team, and where the stream stood when the server said so. */
export interface Session {
  user: User;
  team: Team;
  /** Opened from here, the stream brings everything the page's first loads might miss (useStream). */
  streamCursor?: string;
}
