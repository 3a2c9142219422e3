import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_core.js';
import * as m0002 from './0002_events.js';
import * as m0003 from './0003_send_path.js';
import * as m0004 from './0004_trust.js';
import * as m0005 from './0005_events_by_status.js';
import * as m0006 from './0006_listener_backoff.js';
import * as m0007 from './0007_stream.js';
import * as m0008 from './0008_secret_grace.js';
import * as m0009 from './0009_message_edits.js';
import * as m0010 from './0010_stream_positions.js';
import * as m0012 from './0012_widget_opens.js';
import * as m0014 from './0014_app_event_settings.js';
import * as m0015 from './0015_search.js';
import * as m0016 from './0016_session_details.js';
import * as m0017 from './0017_webhooks_scheduled.js';
import * as m0018 from './0018_response_urls.js';
import * as m0019 from './0019_reactions_deletes.js';
import * as m0020 from './0020_invitations.js';
import * as m0021 from './0021_message_retention.js';
import * as m0022 from './0022_audit_log.js';
import * as m0023 from './0023_pins_saved.js';
import * as m0024 from './0024_files.js';
import * as m0025 from './0025_threads.js';
import * as m0026 from './0026_notifications.js';
import * as m0027 from './0027_sign_in.js';
import * as m0028 from './0028_admin.js';
import * as m0029 from './0029_search_queue.js';
import * as m0030 from './0030_personal_tokens.js';
import * as m0031 from './0031_time_zones.js';
import * as m0032 from './0032_pictures.js';
import * as m0033 from './0033_upload_parts.js';
import * as m0034 from './0034_search_late_rows.js';
import * as m0035 from './0035_search_by_chat.js';
import * as m0036 from './0036_search_fold_once.js';
import * as m0037 from './0037_search_buckets.js';
import * as m0039 from './0039_push_sessions.js';
import * as m0040 from './0040_search_queue_postgres.js';
import * as m0041 from './0041_install_claims.js';
import * as m0042 from './0042_scheduled_files.js';
import * as m0043 from './0043_people_last_seen.js';

/** Numbered migrations, applied in order; a new one is appended here and never edited once released. */
const migrations: Record<string, Migration> = {
  '0001_core': m0001,
  '0002_events': m0002,
  '0003_send_path': m0003,
  '0004_trust': m0004,
  '0005_events_by_status': m0005,
  '0006_listener_backoff': m0006,
  '0007_stream': m0007,
  '0008_secret_grace': m0008,
  '0009_message_edits': m0009,
  '0010_stream_positions': m0010,
  '0012_widget_opens': m0012,
  '0014_app_event_settings': m0014,
  '0015_search': m0015,
  '0016_session_details': m0016,
  '0017_webhooks_scheduled': m0017,
  '0018_response_urls': m0018,
  '0019_reactions_deletes': m0019,
  '0020_invitations': m0020,
  '0021_message_retention': m0021,
  '0022_audit_log': m0022,
  '0023_pins_saved': m0023,
  '0024_files': m0024,
  '0025_threads': m0025,
  '0026_notifications': m0026,
  '0027_sign_in': m0027,
  '0028_admin': m0028,
  '0029_search_queue': m0029,
  '0030_personal_tokens': m0030,
  '0031_time_zones': m0031,
  '0032_pictures': m0032,
  '0033_upload_parts': m0033,
  '0034_search_late_rows': m0034,
  '0035_search_by_chat': m0035,
  '0036_search_fold_once': m0036,
  '0037_search_buckets': m0037,
  '0039_push_sessions': m0039,
  '0040_search_queue_postgres': m0040,
  '0041_install_claims': m0041,
  '0042_scheduled_files': m0042,
  '0043_people_last_seen': m0043,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
