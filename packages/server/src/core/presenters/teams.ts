import type { Team } from '@aviary/protocol';
import type { TeamsTable } from '../../store/schema.js';

export function presentTeam(team: Pick<TeamsTable, 'id' | 'name' | 'app_creators' | 'who_may_invite'>): Team {
  return { id: team.id, name: team.name, appCreators: team.app_creators, whoMayInvite: team.who_may_invite };
}
