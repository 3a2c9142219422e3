/**
 * Row types of every table. Both dialects return the same JavaScript values for these: text ids,
 * epoch-millisecond integers (pg's int8 parsed to number), 0/1 integers for booleans, JSON as text.
 */
export interface TeamsTable {
  id: string;
  name: string;
  created_at: number;
}

export interface UsersTable {
  id: string;
  team_id: string;
  email: string | null;
  first_name: string;
  last_name: string;
  role: 'user' | 'admin' | 'guest';
  timezone: string;
  profile_image: string | null;
  password_hash: string | null;
  /** The app whose bot this user is; null for people. */
  bot_app_id: string | null;
  deactivated_at: number | null;
  created_at: number;
}

export interface SessionsTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

export interface ChannelsTable {
  id: string;
  team_id: string;
  name: string;
  purpose: string;
  type: 'public' | 'private';
  profile_image: string | null;
  created_by: string;
  created_at: number;
}

export interface ChannelMembersTable {
  channel_id: string;
  user_id: string;
  affiliation: 'moderator' | 'member';
  joined_at: number;
}

export interface MessagesTable {
  uid: string;
  /** The channel id, or for a direct chat the two user ids sorted and joined by `|`. */
  chat_key: string;
  team_id: string;
  from_user_id: string;
  to_id: string;
  client_id: string | null;
  timestamp: number;
  text: string;
  serviceml: string | null;
  notification: string | null;
  mentions: string | null;
  send_as: string | null;
  app_id: string | null;
  attachments: string | null;
  visible_to: string | null;
}

export interface AppsTable {
  id: string;
  team_id: string;
  developer_id: string;
  name: string;
  description: string;
  icon: string | null;
  secret: string;
  listener_url: string | null;
  configuration_url: string | null;
  /** JSON: slash commands, buttons, message action, preview domains. */
  integrations: string;
  bot_user_id: string | null;
  disabled_by_team: number;
  created_at: number;
  updated_at: number;
}

export interface InstallsTable {
  app_id: string;
  user_id: string;
  disabled_by_user: number;
  created_at: number;
}

/** Every token that can call methods: a user's token for one app, or an app's bot token. */
export interface AppTokensTable {
  token_hash: string;
  app_id: string;
  user_id: string;
  kind: 'user' | 'bot';
  created_at: number;
}

export interface Database {
  teams: TeamsTable;
  users: UsersTable;
  sessions: SessionsTable;
  channels: ChannelsTable;
  channel_members: ChannelMembersTable;
  messages: MessagesTable;
  apps: AppsTable;
  installs: InstallsTable;
  app_tokens: AppTokensTable;
}
