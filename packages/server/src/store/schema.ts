import type { ColumnType, Selectable } from 'kysely';

/**
 * Row types of every table. Both dialects return the same JavaScript values for these: text ids,
 * epoch-millisecond integers (pg's int8 parsed to number), 0/1 integers for booleans, JSON as text.
 */
export interface TeamsTable {
  id: string;
  name: string;
  /** Who may create apps: `members` (members and admins), `admins`, or `everyone` (guests too). */
  app_creators: 'members' | 'admins' | 'everyone';
  /** Who may invite people: `admins` (the default) or `members` (members and admins; never guests). */
  who_may_invite: 'admins' | 'members';
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
  /** 1 while the person has yet to show they read mail at their email (a sign-up by invite link; migration 0020), else 0 (the column's default, so a writer may leave it out). */
  email_unverified?: number;
  created_at: number;
}

export interface SessionsTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  /** The User-Agent and client address it signed in with, and when it was last used (at most once a minute). */
  user_agent: string | null;
  client_address: string | null;
  last_seen_at: number | null;
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
  /** When the sender last edited it (chat.updateMessage); null while never edited. */
  edited_at: number | null;
  /** The incoming webhook it was posted through (migration 0017); null for any other message. */
  webhook_id: string | null;
  /** The uid of the thread's root message for a reply; null otherwise (migration 0025). */
  thread_parent: string | null;
  /** 1 for a thread reply also sent to the channel (its history shows it), else 0. */
  also_in_channel: number;
  /** Set when a parent with replies was deleted: the row stays, emptied, for its thread. */
  deleted_at: number | null;
  /** The files it carries as the API shows them, JSON (migration 0024); null or absent for none. */
  files?: string | null;
}

/** A channel's incoming webhook (migration 0017): posts as its owner, named as the integration. */
export interface WebhooksTable {
  id: string;
  team_id: string;
  channel_id: string;
  /** Who made it: a person, or an app's user or bot (then `app_id` is the app). */
  owner_user_id: string;
  app_id: string | null;
  /** For a bot's webhook: the channel member on whose behalf the bot posts (chat.sendMessage's onBehalfOf). */
  on_behalf_of: string | null;
  name: string;
  icon_url: string | null;
  /** SHA-256 of the URL's secret; the secret itself is shown once, never stored. */
  secret_hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** A message to send later (chat.scheduleMessage, migration 0017). */
export interface ScheduledMessagesTable {
  id: string;
  team_id: string;
  sender_user_id: string;
  app_id: string | null;
  to_id: string;
  /** chat.sendMessage's params as JSON (without sendAt). */
  params: string;
  send_at: number;
  status: 'pending' | 'sent' | 'failed';
  message_uid: string | null;
  error_code: string | null;
  error_description: string | null;
  created_at: number;
  finished_at: number | null;
}

export interface AppsTable {
  id: string;
  team_id: string;
  developer_id: string;
  name: string;
  description: string;
  icon: string | null;
  secret: string;
  /** The secret before the last rotation, still signing a second token until `previous_secret_until`. */
  previous_secret: string | null;
  previous_secret_until: number | null;
  listener_url: string | null;
  configuration_url: string | null;
  /** JSON: slash commands, buttons, message action, preview domains. */
  integrations: string;
  bot_user_id: string | null;
  /** JSON array of extra origins the app's widget and browser tokens may go to. */
  allowed_origins: string;
  /** 1: the app's events and widget URLs also carry Flock's names, and its calls may use them (docs/flock-compatibility.md). */
  flock_naming: number;
  /** JSON array of the event names the app receives; null: the defaults (docs/reference/event-subscriptions.md). */
  event_subscriptions: string | null;
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

/** An install under way (migration 0041): the one install of the app for the person until it ends or lapses. */
export interface InstallClaimsTable {
  app_id: string;
  user_id: string;
  /** The claim's own id, so that only its taker gives it back. */
  claim: string;
  expires_at: number;
}

/** Every token that can call methods: a user's token for one app, or an app's bot token. */
export interface AppTokensTable {
  token_hash: string;
  app_id: string;
  user_id: string;
  kind: 'user' | 'bot';
  created_at: number;
}

/** Columns the event engine (migration 0002) adds to `teams`. */
export interface TeamEventColumns {
  /** The team's system bot ("Aviary System"), made the first time the service must tell someone something. */
  system_user_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Columns the event engine (migration 0002) adds to `apps`. */
export interface AppDeliveryColumns {
  /** Set when asynchronous delivery was paused after days of failures; events wait until a resume. */
  delivery_paused_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** The first failed attempt since the last success; null while the listener is healthy. */
  delivery_failing_since: ColumnType<number | null, number | null | undefined, number | null>;
}

/** The app's listener backoff (migration 0006): see events/delivery/listenerBackoff.ts. */
export interface AppListenerColumns {
  /** While the listener is failing, when its oldest waiting event is tried again; null while it answers. */
  listener_retry_at: ColumnType<number | null, number | null | undefined, number | null>;
  /** Failed probes in a row: the rung of the retry ladder the next wait is taken from. */
  listener_retry_step: ColumnType<number, number | undefined, number>;
  /** 1 when the last failure was a connection that could not be made, which a bare connection may disprove. */
  listener_unreachable: ColumnType<number, number | undefined, number>;
}

export type EventStatus = 'pending' | 'delivered' | 'failed';

/** The outbox: one row per event, asynchronous (delivered by the worker) or synchronous (recorded after the fact). */
export interface EventsTable {
  /** Also the event token's `jti`; a ULID, so ids sort by creation. */
  id: string;
  app_id: string;
  user_id: string;
  name: string;
  /** The event object as sent, JSON. */
  payload: string;
  synchronous: number;
  status: EventStatus;
  /** The number of the next attempt: 0 before the first, the X-Service-Retry-Num header. */
  retry_num: number;
  /**
   * When a pending event is due; null once delivered or failed, and null for a pending event that failed
   * and now waits for its app's listener (held: the probe takes the oldest, a 2xx releases them all).
   */
  next_attempt_at: number | null;
  /** Why the last attempt failed: X-Service-Retry-Reason of the next one. */
  last_reason: string | null;
  last_error: string | null;
  delivered_at: number | null;
  /** A worker's lease on the event; after it passes, any worker may claim the event again. */
  claimed_until: number | null;
  /** Which claim holds the lease, so that a late worker cannot overwrite a newer claim's outcome. */
  claim_token: string | null;
  /** A widget or browser open (migration 0012): the URL it went to, without its query; null for a listener delivery. */
  opened_url: string | null;
  created_at: number;
  updated_at: number;
}

export type AttemptOutcome = 'delivered' | 'retry' | 'failed';

export interface EventAttemptsTable {
  id: string;
  event_id: string;
  app_id: string;
  retry_num: number;
  started_at: number;
  duration_ms: number;
  /** The listener's HTTP status; null when no answer came. */
  status: number | null;
  reason: string | null;
  error: string | null;
  /** The first 1 KiB of the answer's body. */
  response_snippet: string | null;
  outcome: AttemptOutcome;
}

/** Columns the stream (migration 0007) adds to `teams`. */
export interface TeamStreamColumns {
  /**
   * SQLite: the team's last stream position; a change takes the next ones in its transaction.
   * PostgreSQL: the last position taken before migration 0010 (positions come from transaction ids since).
   */
  stream_seq: ColumnType<number, number | undefined, number>;
  /** Positions up to this one may have been pruned (migration 0010): a cursor below it cannot resume. */
  stream_pruned: ColumnType<number, number | undefined, number>;
}

/** One position of a team's stream: a frame, and who may receive it. */
export interface StreamEntriesTable {
  team_id: string;
  seq: number;
  /** The frame's type (`message.created`, …). */
  type: string;
  /** JSON: who may receive it (core/stream/audience.ts). */
  audience: string;
  /** JSON object: the frame's fields besides `type` and `cursor`. */
  payload: string;
  created_at: number;
}

/** A person's personal API token (migration 0030): it acts as the person; stored hashed. */
export interface PersonalTokensTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  created_at: number;
  /** Null: it never expires. */
  expires_at: number | null;
  /** When it was last used, at most once a minute. */
  last_used_at: number | null;
  /** When the person revoked it (or was deactivated); null while it stands. */
  revoked_at: number | null;
}

/** A single-use ticket to open the stream, made by a signed-in session or a personal token. */
export interface StreamTicketsTable {
  token_hash: string;
  user_id: string;
  /** The session (or personal token) that asked for it: the stream closes when that one ends. */
  session_hash: string;
  expires_at: number;
}

/** How far a person has read a chat. */
export interface ChatReadsTable {
  user_id: string;
  /** The channel id, or the direct chat's key. */
  chat_key: string;
  /** Everything up to and including this message uid is read. */
  read_uid: string;
  updated_at: number;
}

/** Migration 0015: the language of the team's search index on PostgreSQL (a text search configuration). */
export interface TeamSearchColumns {
  search_language: ColumnType<string, string | undefined, string>;
}

/**
 * Migration 0021: how long messages are kept, in days. On a team, null keeps them forever (the default);
 * on a channel, null follows the team and 0 keeps them forever whatever the team's.
 */
export interface MessageRetentionColumns {
  message_retention_days: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Where `aviary search reindex` stands: the last message uid it indexed (one row at most). */
export interface SearchReindexTable {
  position: string;
}

/** A deferred reply's URL (migration 0018): its token hashed, what a reply through it may do, its uses. */
export interface ResponseUrlsTable {
  token_hash: string;
  app_id: string;
  team_id: string;
  /** The person who acted: an ephemeral reply is visible to them alone. */
  user_id: string;
  /** The chat as the event named it: a channel id, or the other person's id for a direct chat. */
  chat: string;
  /** The message whose button or <action> was used (replaceOriginal), when there was one. */
  message_uid: string | null;
  event_name: string;
  uses: number;
  expires_at: number;
  created_at: number;
}

/** Migration 0019: how long after sending people may edit or delete their own messages; 0: no limit. */
export interface TeamMessageColumns {
  message_edit_window_ms: ColumnType<number, number | undefined, number>;
}

/** Columns the admin console (migration 0028) adds to `teams`: who may create channels. */
export interface TeamAdminColumns {
  who_may_create_channels: ColumnType<'everyone' | 'members' | 'admins', 'everyone' | 'members' | 'admins' | undefined, 'everyone' | 'members' | 'admins'>;
}

/** A profile picture or team icon (migration 0032): its squares' bytes are in the files storage. */
export interface PicturesTable {
  id: string;
  team_id: string;
  owner_kind: 'person' | 'team';
  owner_id: string;
  created_at: number;
}

/** The column migration 0032 adds to `teams`: the team's icon, a /pictures URL (null: none). */
export interface TeamIconColumns {
  icon_url: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Columns migration 0028 adds to `channels`: when a team admin archived it (null: not archived). */
export interface ChannelArchiveColumns {
  archived_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Columns migration 0028 adds to `users`: the person's status, with an optional emoji and expiry. */
export interface UserStatusColumns {
  status_text: ColumnType<string | null, string | null | undefined, string | null>;
  status_emoji: ColumnType<string | null, string | null | undefined, string | null>;
  status_expires_at: ColumnType<number | null, number | null | undefined, number | null>;
}

/** One person's (or bot's) reaction to a message with one emoji (migration 0019). */
export interface ReactionsTable {
  message_uid: string;
  emoji: string;
  user_id: string;
  team_id: string;
  created_at: number;
}

/** What a message said before one of its edits (migration 0019), for team admins. */
export interface MessageEditsTable {
  message_uid: string;
  edited_at: number;
  edited_by: string;
  previous_text: string;
  previous_serviceml: string | null;
}

/** An invitation by email or an invite link (migration 0020); the token is kept only as its hash. */
export interface InvitationsTable {
  id: string;
  team_id: string;
  token_hash: string;
  /** The address invited; null for an invite link anyone holding it may use. */
  email: string | null;
  role: 'user' | 'guest';
  /** JSON array of channel ids a guest joins on sign-up (members join the team's default channels as any new person). */
  channel_ids: string;
  max_uses: number;
  uses: number;
  expires_at: number;
  created_by: string;
  created_at: number;
  revoked_at: number | null;
}

/** One administrative or security-relevant action (migration 0022); append-only, pruned by the retention job. */
export interface AuditLogTable {
  id: string;
  team_id: string;
  at: number;
  actor_user_id: string | null;
  actor_app_id: string | null;
  /** A short dotted name such as `session.signIn` or `app.secretRotated`. */
  action: string;
  target_kind: string;
  target_id: string;
  /** The client's address as AVIARY_TRUST_PROXY decides; null for the CLI. */
  address: string | null;
  /** Small JSON object, never a secret. */
  details: string;
}

/** A single-use link of a person's account: a password reset or an email verification (migration 0020). */
export interface AccountTokensTable {
  token_hash: string;
  user_id: string;
  purpose: 'reset' | 'verify';
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

/** Mail waiting to go out through SMTP (migration 0020). */
export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  body: string;
  attempts: number;
  next_attempt_at: number;
  sent_at: number | null;
  last_error: string | null;
  created_at: number;
}

/** A message pinned to its chat (migration 0023). */
export interface PinsTable {
  message_uid: string;
  chat_key: string;
  team_id: string;
  pinned_by: string;
  pinned_at: number;
}

/** A message a person saved for themselves (migration 0023). */
export interface SavedItemsTable {
  user_id: string;
  message_uid: string;
  team_id: string;
  saved_at: number;
}

/** A message with replies: their count, the newest, a few recent participants (migration 0025). */
export interface ThreadsTable {
  parent_uid: string;
  chat_key: string;
  team_id: string;
  reply_count: number;
  last_reply_uid: string;
  last_reply_at: number;
  /** JSON array of user ids, the most recent replier first, at most a few. */
  participants: string;
}

/** Who follows a thread (following = 1) or unfollowed it (0), and how far they read it. */
export interface ThreadFollowsTable {
  user_id: string;
  parent_uid: string;
  team_id: string;
  following: number;
  read_up_to: string | null;
}

/** A team's own sign-in settings (migration 0027); a team without a row keeps the defaults. */
export interface TeamSignInTable {
  team_id: string;
  /** 1: people may sign in with a password; 0: only through the provider (the CLI still can turn it back on). */
  password_enabled: number;
  oidc_issuer: string | null;
  oidc_client_id: string | null;
  /** The client secret sealed with the server's key (secretKeys.ts), never in clear. */
  oidc_client_secret_sealed: string | null;
  /** JSON array of lower-case domains; empty: any. */
  oidc_allowed_domains: string;
  oidc_create_accounts: number;
  updated_at: number;
}

/** A sign-in begun at the provider: single-use, bound to one browser (migration 0027). */
export interface SsoAttemptsTable {
  state_hash: string;
  team_id: string;
  browser_hash: string;
  nonce: string;
  code_verifier: string;
  expires_at: number;
}

/** A provider's subject, linked to a person by verified email on their first sign-in through it. */
export interface SsoIdentitiesTable {
  team_id: string;
  issuer: string;
  subject: string;
  user_id: string;
  created_at: number;
}

/** Migration 0026: above this many channel members only team admins may use @channel and @here; 0: no limit. */
export interface TeamMentionColumns {
  broadcast_mention_limit: ColumnType<number, number | undefined, number>;
}

/** A person's notification level for one chat, when not the default (migration 0026). */
export interface NotificationLevelsTable {
  user_id: string;
  chat_key: string;
  /** The chat as the person names it: the channel id, or the other person's id. */
  chat: string;
  level: 'all' | 'mentions' | 'mute';
  updated_at: number;
}

/** A person's do-not-disturb (migration 0026): the weekly schedule as JSON, and a pause. */
export interface NotificationDndTable {
  user_id: string;
  schedule: string | null;
  paused_until: number | null;
  updated_at: number;
}

/** A browser's Web Push subscription for one person (migration 0026). */
export interface PushSubscriptionsTable {
  endpoint: string;
  user_id: string;
  team_id: string;
  p256dh: string;
  auth: string;
  created_at: number;
  /** The session it was made from (its token hash; migration 0039): pushed to only while that session lasts. Null for one made before. */
  session_hash: string | null;
}

/** The server's VAPID key pair (migration 0026); the private key sealed. */
export interface WebPushKeysTable {
  id: string;
  public_key: string;
  private_key: string;
  created_at: number;
}

export interface Database {
  teams: TeamsTable & TeamEventColumns & TeamStreamColumns & TeamSearchColumns & MessageRetentionColumns & TeamMessageColumns & TeamAdminColumns & TeamMentionColumns & TeamIconColumns;
  users: UsersTable & UserStatusColumns;
  sessions: SessionsTable;
  personal_tokens: PersonalTokensTable;
  channels: ChannelsTable & MessageRetentionColumns & ChannelArchiveColumns;
  channel_members: ChannelMembersTable;
  messages: MessagesTable;
  apps: AppsTable & AppDeliveryColumns & AppListenerColumns;
  installs: InstallsTable;
  install_claims: InstallClaimsTable;
  app_tokens: AppTokensTable;
  events: EventsTable;
  event_attempts: EventAttemptsTable;
  stream_entries: StreamEntriesTable;
  stream_tickets: StreamTicketsTable;
  chat_reads: ChatReadsTable;
  search_reindex: SearchReindexTable;
  response_urls: ResponseUrlsTable;
  webhooks: WebhooksTable;
  scheduled_messages: ScheduledMessagesTable;
  scheduled_files: ScheduledFilesTable;
  people_last_seen: PeopleLastSeenTable;
  reactions: ReactionsTable;
  message_edits: MessageEditsTable;
  invitations: InvitationsTable;
  account_tokens: AccountTokensTable;
  mail_outbox: MailOutboxTable;
  audit_log: AuditLogTable;
  pins: PinsTable;
  saved_items: SavedItemsTable;
  threads: ThreadsTable;
  thread_follows: ThreadFollowsTable;
  team_sign_in: TeamSignInTable;
  sso_attempts: SsoAttemptsTable;
  sso_identities: SsoIdentitiesTable;
  files: FilesTable;
  message_files: MessageFilesTable;
  file_upload_parts: FileUploadPartsTable;
  notification_levels: NotificationLevelsTable;
  notification_dnd: NotificationDndTable;
  push_subscriptions: PushSubscriptionsTable;
  web_push_keys: WebPushKeysTable;
  pictures: PicturesTable;
}

/** An uploaded file (migration 0024, docs/reference/files.md). */
export interface FilesTable {
  id: string;
  team_id: string;
  uploaded_by: string;
  /** The app whose token uploaded it; null for a person's session. */
  app_id: string | null;
  name: string;
  size: number;
  /** From the bytes (file-type), never from the name; application/octet-stream when they tell nothing. */
  mime_type: string;
  /** 'uploading': files.upload under way; 'resumable': started with files.startUpload, not finished; 'stored'. */
  state: 'uploading' | 'resumable' | 'stored';
  width: number | null;
  height: number | null;
  renditions: 'none' | 'pending' | 'ready';
  created_at: number;
  attached_at: number | null;
}

/** A part of a resumable upload, stored on its own until files.finishUpload (migration 0033). */
export interface FileUploadPartsTable {
  file_id: string;
  start: number;
  size: number;
  storage_name: string;
}

/** Which message carries which file, at which position. */
export interface MessageFilesTable {
  message_uid: string;
  file_id: string;
  chat_key: string;
  position: number;
}

/** When a person last used a session (its sign-in, then at most once a minute; migration 0043): "last active" outlives the session. */
export interface PeopleLastSeenTable {
  user_id: string;
  last_seen_at: number;
}

/** A file a scheduled message will carry, held from the sweep until the message is sent, cancelled or refused (migration 0042). */
export interface ScheduledFilesTable {
  scheduled_id: string;
  file_id: string;
  position: number;
}

/** A team's row as read, with the columns later migrations added. */
export type TeamRow = Selectable<Database['teams']>;
