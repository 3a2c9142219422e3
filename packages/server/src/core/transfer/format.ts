/**
 * The team export format (docs/operations.md, "Team export and import"): a directory of JSON-lines files,
 * one per kind of record, and `manifest.json`. Each kind is declared here once, as the table it comes
 * from, the rows of the team it takes and how each column becomes a field; the export, the import and
 * the documentation all follow these declarations. A new kind is one more entry; an importer refuses a
 * manifest naming a kind it does not know. The bytes of files are not records: they sit beside them, in
 * the export's `files/` folder, and the squares of pictures in `pictures/` (fileBytes.ts).
 */

export const EXPORT_FORMAT = 'aviary-team-export';
/** Raised when a field changes meaning or a kind is removed; a new kind or a new optional field keeps it. */
export const EXPORT_FORMAT_VERSION = 1;
export const MANIFEST_FILE = 'manifest.json';

/**
 * How a column becomes a field: `json` columns hold JSON text and become the value itself, `boolean`
 * columns hold 0/1 and become false/true, `sealed` columns hold a secret sealed with the server's key
 * and become the secret (each store seals with its own key). A `secret` field is written only with
 * --include-secrets. `absent` is what an import stores for a field an older export does not have.
 */
export interface FieldSpec {
  field: string;
  column: string;
  as?: 'json' | 'boolean' | 'sealed';
  secret?: true;
  absent?: string | number;
}

/** Which rows of the table belong to the team: `column` is the team's id, or names a parent row of the team. */
export type Scope = { column: string; parent?: { table: string; key: string } };

export interface KindSpec {
  kind: string;
  file: string;
  table: string;
  /** The table's primary key, in paging order (keyset pages: never an OFFSET). */
  key: readonly string[];
  scope: Scope;
  fields: readonly FieldSpec[];
  /** A kind written only with --include-secrets (credentials a store keeps hashed). */
  secret?: true;
  /** Only the rows this says (files: those whose every byte is stored, not uploads under way). */
  only?: { column: string; value: string };
}

const f = (field: string, column: string, as?: FieldSpec['as']): FieldSpec => ({ field, column, ...(as ? { as } : {}) });
/** A field added to a kind after exports without it were made: `absent` is stored for those. */
const added = (field: string, column: string, absent: string | number, as?: FieldSpec['as']): FieldSpec => ({ ...f(field, column, as), absent });
const team = { column: 'team_id' } as const;
const via = (column: string, table: string): Scope => ({ column, parent: { table, key: 'id' } });

/** Every kind, in the order an import writes them (each row's references come before it). */
export const kinds: readonly KindSpec[] = [
  {
    kind: 'team', file: 'team.jsonl', table: 'teams', key: ['id'], scope: { column: 'id' },
    fields: [f('id', 'id'), f('name', 'name'), f('appCreators', 'app_creators'), f('searchLanguage', 'search_language'), f('systemUserId', 'system_user_id'), f('messageRetentionDays', 'message_retention_days'),
      f('messageEditWindowMs', 'message_edit_window_ms'), f('createdAt', 'created_at'), added('whoMayInvite', 'who_may_invite', 'admins'),
      added('whoMayCreateChannels', 'who_may_create_channels', 'everyone'), added('broadcastMentionLimit', 'broadcast_mention_limit', 0), f('icon', 'icon_url')],
  },
  {
    kind: 'people', file: 'people.jsonl', table: 'users', key: ['id'], scope: team,
    fields: [
      f('id', 'id'), f('email', 'email'), f('firstName', 'first_name'), f('lastName', 'last_name'), f('role', 'role'), f('timezone', 'timezone'),
      f('profileImage', 'profile_image'), f('passwordHash', 'password_hash'), f('botAppId', 'bot_app_id'), f('deactivatedAt', 'deactivated_at'), f('createdAt', 'created_at'),
      f('emailUnverified', 'email_unverified', 'boolean'), f('statusText', 'status_text'), f('statusEmoji', 'status_emoji'), f('statusExpiresAt', 'status_expires_at'),
    ],
  },
  {
    // People's pictures and the team's icon; their squares sit in the export's pictures/ folder (fileBytes.ts).
    kind: 'pictures', file: 'pictures.jsonl', table: 'pictures', key: ['id'], scope: team,
    fields: [f('id', 'id'), f('ownerKind', 'owner_kind'), f('ownerId', 'owner_id'), f('createdAt', 'created_at')],
  },
  {
    kind: 'apps', file: 'apps.jsonl', table: 'apps', key: ['id'], scope: team,
    fields: [
      f('id', 'id'), f('developerId', 'developer_id'), f('name', 'name'), f('description', 'description'), f('icon', 'icon'),
      { field: 'secret', column: 'secret', secret: true }, { field: 'previousSecret', column: 'previous_secret', secret: true },
      { field: 'previousSecretUntil', column: 'previous_secret_until', secret: true },
      f('listenerUrl', 'listener_url'), f('configurationUrl', 'configuration_url'), f('integrations', 'integrations', 'json'), f('botUserId', 'bot_user_id'),
      f('allowedOrigins', 'allowed_origins', 'json'), f('flockNaming', 'flock_naming', 'boolean'), f('eventSubscriptions', 'event_subscriptions', 'json'),
      f('disabledByTeam', 'disabled_by_team', 'boolean'), f('createdAt', 'created_at'), f('updatedAt', 'updated_at'),
    ],
  },
  {
    kind: 'channels', file: 'channels.jsonl', table: 'channels', key: ['id'], scope: team,
    fields: [f('id', 'id'), f('name', 'name'), f('purpose', 'purpose'), f('type', 'type'), f('profileImage', 'profile_image'), f('createdBy', 'created_by'), f('messageRetentionDays', 'message_retention_days'), f('createdAt', 'created_at'),
      f('archivedAt', 'archived_at')],
  },
  {
    kind: 'memberships', file: 'memberships.jsonl', table: 'channel_members', key: ['channel_id', 'user_id'], scope: via('channel_id', 'channels'),
    fields: [f('channelId', 'channel_id'), f('userId', 'user_id'), f('affiliation', 'affiliation'), f('joinedAt', 'joined_at')],
  },
  {
    kind: 'installs', file: 'installs.jsonl', table: 'installs', key: ['app_id', 'user_id'], scope: via('app_id', 'apps'),
    fields: [f('appId', 'app_id'), f('userId', 'user_id'), f('disabledByUser', 'disabled_by_user', 'boolean'), f('createdAt', 'created_at')],
  },
  {
    kind: 'tokens', file: 'tokens.jsonl', table: 'app_tokens', key: ['token_hash'], scope: via('app_id', 'apps'), secret: true,
    fields: [f('tokenHash', 'token_hash'), f('appId', 'app_id'), f('userId', 'user_id'), f('kind', 'kind'), f('createdAt', 'created_at')],
  },
  {
    kind: 'files', file: 'files.jsonl', table: 'files', key: ['id'], scope: team, only: { column: 'state', value: 'stored' },
    fields: [
      f('id', 'id'), f('uploadedBy', 'uploaded_by'), f('appId', 'app_id'), f('name', 'name'), f('size', 'size'), f('mimeType', 'mime_type'), f('state', 'state'),
      f('width', 'width'), f('height', 'height'), f('renditions', 'renditions'), f('createdAt', 'created_at'), f('attachedAt', 'attached_at'),
    ],
  },
  {
    kind: 'messages', file: 'messages.jsonl', table: 'messages', key: ['uid'], scope: team,
    fields: [
      f('uid', 'uid'), f('chatKey', 'chat_key'), f('fromUserId', 'from_user_id'), f('toId', 'to_id'), f('clientId', 'client_id'), f('timestamp', 'timestamp'),
      f('text', 'text'), f('serviceml', 'serviceml'), f('notification', 'notification'), f('mentions', 'mentions', 'json'), f('sendAs', 'send_as', 'json'),
      f('appId', 'app_id'), f('attachments', 'attachments', 'json'), f('visibleTo', 'visible_to', 'json'), f('editedAt', 'edited_at'),
      f('webhookId', 'webhook_id'), f('threadParent', 'thread_parent'), f('alsoInChannel', 'also_in_channel', 'boolean'), f('deletedAt', 'deleted_at'),
      f('files', 'files', 'json'),
    ],
  },
  {
    kind: 'messageFiles', file: 'message-files.jsonl', table: 'message_files', key: ['message_uid', 'file_id'], scope: { column: 'message_uid', parent: { table: 'messages', key: 'uid' } },
    fields: [f('messageUid', 'message_uid'), f('fileId', 'file_id'), f('chatKey', 'chat_key'), f('position', 'position')],
  },
  {
    kind: 'reactions', file: 'reactions.jsonl', table: 'reactions', key: ['message_uid', 'emoji', 'user_id'], scope: team,
    fields: [f('messageUid', 'message_uid'), f('emoji', 'emoji'), f('userId', 'user_id'), f('createdAt', 'created_at')],
  },
  {
    kind: 'pins', file: 'pins.jsonl', table: 'pins', key: ['message_uid'], scope: team,
    fields: [f('messageUid', 'message_uid'), f('chatKey', 'chat_key'), f('pinnedBy', 'pinned_by'), f('pinnedAt', 'pinned_at')],
  },
  {
    kind: 'saved', file: 'saved.jsonl', table: 'saved_items', key: ['user_id', 'message_uid'], scope: team,
    fields: [f('userId', 'user_id'), f('messageUid', 'message_uid'), f('savedAt', 'saved_at')],
  },
  {
    kind: 'threads', file: 'threads.jsonl', table: 'threads', key: ['parent_uid'], scope: team,
    fields: [f('parentUid', 'parent_uid'), f('chatKey', 'chat_key'), f('replyCount', 'reply_count'), f('lastReplyUid', 'last_reply_uid'), f('lastReplyAt', 'last_reply_at'), f('participants', 'participants', 'json')],
  },
  {
    kind: 'threadFollows', file: 'thread-follows.jsonl', table: 'thread_follows', key: ['user_id', 'parent_uid'], scope: team,
    fields: [f('userId', 'user_id'), f('parentUid', 'parent_uid'), f('following', 'following', 'boolean'), f('readUpTo', 'read_up_to')],
  },
  {
    kind: 'messageEdits', file: 'message-edits.jsonl', table: 'message_edits', key: ['message_uid', 'edited_at', 'edited_by'],
    scope: { column: 'message_uid', parent: { table: 'messages', key: 'uid' } },
    fields: [f('messageUid', 'message_uid'), f('editedAt', 'edited_at'), f('editedBy', 'edited_by'), f('previousText', 'previous_text'), f('previousServiceml', 'previous_serviceml')],
  },
  {
    kind: 'webhooks', file: 'webhooks.jsonl', table: 'webhooks', key: ['id'], scope: team, secret: true,
    fields: [
      f('id', 'id'), f('channelId', 'channel_id'), f('ownerUserId', 'owner_user_id'), f('appId', 'app_id'), f('onBehalfOf', 'on_behalf_of'), f('name', 'name'),
      f('iconUrl', 'icon_url'), f('secretHash', 'secret_hash'), f('createdAt', 'created_at'), f('lastUsedAt', 'last_used_at'), f('revokedAt', 'revoked_at'),
    ],
  },
  {
    kind: 'reads', file: 'reads.jsonl', table: 'chat_reads', key: ['user_id', 'chat_key'], scope: via('user_id', 'users'),
    fields: [f('userId', 'user_id'), f('chatKey', 'chat_key'), f('readUid', 'read_uid'), f('updatedAt', 'updated_at')],
  },
  {
    kind: 'scheduled', file: 'scheduled.jsonl', table: 'scheduled_messages', key: ['id'], scope: team,
    fields: [
      f('id', 'id'), f('senderUserId', 'sender_user_id'), f('appId', 'app_id'), f('toId', 'to_id'), f('params', 'params', 'json'), f('sendAt', 'send_at'), f('status', 'status'),
      f('messageUid', 'message_uid'), f('errorCode', 'error_code'), f('errorDescription', 'error_description'), f('createdAt', 'created_at'), f('finishedAt', 'finished_at'),
    ],
  },
  {
    kind: 'scheduledFiles', file: 'scheduled-files.jsonl', table: 'scheduled_files', key: ['scheduled_id', 'file_id'], scope: via('scheduled_id', 'scheduled_messages'),
    fields: [f('scheduledId', 'scheduled_id'), f('fileId', 'file_id'), f('position', 'position')],
  },
  {
    kind: 'invitations', file: 'invitations.jsonl', table: 'invitations', key: ['id'], scope: team, secret: true,
    fields: [
      f('id', 'id'), f('tokenHash', 'token_hash'), f('email', 'email'), f('role', 'role'), f('channelIds', 'channel_ids', 'json'), f('maxUses', 'max_uses'), f('uses', 'uses'),
      f('expiresAt', 'expires_at'), f('createdBy', 'created_by'), f('createdAt', 'created_at'), f('revokedAt', 'revoked_at'),
    ],
  },
  {
    kind: 'notificationLevels', file: 'notification-levels.jsonl', table: 'notification_levels', key: ['user_id', 'chat_key'], scope: via('user_id', 'users'),
    fields: [f('userId', 'user_id'), f('chatKey', 'chat_key'), f('chat', 'chat'), f('level', 'level'), f('updatedAt', 'updated_at')],
  },
  {
    kind: 'doNotDisturb', file: 'do-not-disturb.jsonl', table: 'notification_dnd', key: ['user_id'], scope: via('user_id', 'users'),
    fields: [f('userId', 'user_id'), f('schedule', 'schedule', 'json'), f('pausedUntil', 'paused_until'), f('updatedAt', 'updated_at')],
  },
  {
    kind: 'signIn', file: 'sign-in.jsonl', table: 'team_sign_in', key: ['team_id'], scope: team,
    fields: [
      f('teamId', 'team_id'), added('passwordEnabled', 'password_enabled', 1, 'boolean'), f('oidcIssuer', 'oidc_issuer'), f('oidcClientId', 'oidc_client_id'),
      { field: 'oidcClientSecret', column: 'oidc_client_secret_sealed', as: 'sealed', secret: true }, added('oidcAllowedDomains', 'oidc_allowed_domains', '[]', 'json'),
      f('oidcCreateAccounts', 'oidc_create_accounts', 'boolean'), f('updatedAt', 'updated_at'),
    ],
  },
  {
    kind: 'ssoIdentities', file: 'sso-identities.jsonl', table: 'sso_identities', key: ['team_id', 'issuer', 'subject'], scope: team,
    fields: [f('teamId', 'team_id'), f('issuer', 'issuer'), f('subject', 'subject'), f('userId', 'user_id'), f('createdAt', 'created_at')],
  },
  {
    kind: 'audit', file: 'audit.jsonl', table: 'audit_log', key: ['id'], scope: team,
    fields: [
      f('id', 'id'), f('at', 'at'), f('actorUserId', 'actor_user_id'), f('actorAppId', 'actor_app_id'), f('action', 'action'), f('targetKind', 'target_kind'),
      f('targetId', 'target_id'), f('address', 'address'), added('details', 'details', '{}', 'json'),
    ],
  },
];

export const kindNamed = (name: string): KindSpec | undefined => kinds.find((spec) => spec.kind === name);

export type Row = Record<string, unknown>;
export type ExportRecord = Record<string, unknown>;

/** Seals and opens `sealed` fields with a store's key (store/secretKeys.ts's SecretKeyring). */
export interface Sealer {
  seal(plain: string): string;
  open(stored: string): string;
}

/** A stored row as its record; secret fields only when asked for. */
export function toRecord(spec: KindSpec, row: Row, includeSecrets: boolean, sealer: Sealer): ExportRecord {
  const record: ExportRecord = {};
  for (const { field, column, as, secret } of spec.fields) {
    if (secret && !includeSecrets) continue;
    const value = row[column] ?? null;
    record[field] =
      value === null ? null : as === 'json' ? JSON.parse(String(value)) : as === 'boolean' ? Number(value) === 1 : as === 'sealed' ? sealer.open(String(value)) : value;
  }
  return record;
}

/**
 * A record as the row to store for `teamId`; a field absent from the record is its `absent`, else null,
 * false for a boolean (the importer fills app secrets).
 */
export function toRow(spec: KindSpec, record: ExportRecord, teamId: string, sealer: Sealer): Row {
  const row: Row = spec.scope.column === 'team_id' ? { team_id: teamId } : {};
  for (const { field, column, as, absent } of spec.fields) {
    const value = record[field] ?? null;
    if (value === null) row[column] = absent ?? (as === 'boolean' ? 0 : null);
    else row[column] = as === 'json' ? JSON.stringify(value) : as === 'boolean' ? (value === true ? 1 : 0) : as === 'sealed' ? sealer.seal(String(value)) : value;
  }
  return row;
}

/** What manifest.json holds. */
export interface Manifest {
  format: typeof EXPORT_FORMAT;
  formatVersion: number;
  aviaryVersion: string;
  exportedAt: string;
  /** `team`: the whole team; `channel` and `person`: a compliance export (messages only, not importable). */
  scope: { kind: 'team' } | { kind: 'channel'; channelId: string; since: number | null; until: number | null } | { kind: 'person'; userId: string; since: number | null; until: number | null };
  team: { id: string; name: string };
  includesSecrets: boolean;
  /** Each kind written: its file and how many records it holds. */
  kinds: Record<string, { file: string; count: number }>;
  /** The bytes of the files (fileBytes.ts): the folder, how many files it holds (renditions besides) and their bytes. */
  fileBytes?: { folder: string; files: number; bytes: number };
}
