import type { Team, User } from '../api/client';

/** Who is signed in, and to which team. */
export interface Session {
  user: User;
  team: Team;
}
