/** Makes the error of a setting the server cannot use (config.ts's ConfigError). */
type Refuse = (setting: string, message: string) => Error;

/** An S3-compatible object store (config.files.s3); unset, files go to disk. */
export interface S3Config {
  endpoint?: string;
  bucket: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/** Uploaded files (docs/reference/files.md "Configuration"). */
export interface FilesConfig {
  /** The largest file one upload may carry, in bytes. Env `AVIARY_FILE_MAX_BYTES`; 100 MiB by default. */
  maxFileBytes: number;
  /** The bytes of all a team's files together, each counted once. Env `AVIARY_FILE_TEAM_QUOTA_BYTES`; 10 GiB by default. */
  teamQuotaBytes: number;
  /**
   * How long an uploaded file waits for a message to carry it before the sweep removes it (and an
   * upload cut off halfway, its bytes). Env `AVIARY_FILE_ORPHAN_MS`; 24 hours by default.
   */
  orphanMs: number;
  /** An S3-compatible bucket instead of the data directory: set by `AVIARY_S3_BUCKET` and its companions. */
  s3?: S3Config;
}

export const defaultFilesConfig: Omit<FilesConfig, 's3'> = {
  maxFileBytes: 100 * 1024 * 1024,
  teamQuotaBytes: 10 * 1024 * 1024 * 1024,
  orphanMs: 24 * 60 * 60 * 1000,
};

/** The AVIARY_S3_* variables (docs/reference/files.md); the bucket's name turns S3 on. */
export function filesConfig(env: NodeJS.ProcessEnv, input: Partial<FilesConfig>, refuse: Refuse): FilesConfig {
  return {
    maxFileBytes: input.maxFileBytes ?? bytes(env, 'AVIARY_FILE_MAX_BYTES', refuse) ?? defaultFilesConfig.maxFileBytes,
    teamQuotaBytes: input.teamQuotaBytes ?? bytes(env, 'AVIARY_FILE_TEAM_QUOTA_BYTES', refuse) ?? defaultFilesConfig.teamQuotaBytes,
    orphanMs: input.orphanMs ?? bytes(env, 'AVIARY_FILE_ORPHAN_MS', refuse) ?? defaultFilesConfig.orphanMs,
    s3: 's3' in input ? input.s3 : s3FromEnv(env, refuse),
  };
}

function s3FromEnv(env: NodeJS.ProcessEnv, refuse: Refuse): S3Config | undefined {
  const bucket = env.AVIARY_S3_BUCKET?.trim();
  if (!bucket) {
    const stray = ['AVIARY_S3_ENDPOINT', 'AVIARY_S3_ACCESS_KEY_ID', 'AVIARY_S3_SECRET_ACCESS_KEY'].find((name) => env[name]);
    if (stray) throw refuse(stray, 'is set but AVIARY_S3_BUCKET is not: name the bucket too, or unset it to keep files in the data directory.');
    return undefined;
  }
  const endpoint = env.AVIARY_S3_ENDPOINT?.trim() || undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/\s]+/.test(endpoint)) {
    throw refuse('AVIARY_S3_ENDPOINT', 'expected an http:// or https:// URL, such as https://s3.eu-central-1.amazonaws.com or http://127.0.0.1:9000.');
  }
  const pathStyle = env.AVIARY_S3_FORCE_PATH_STYLE?.trim();
  if (pathStyle !== undefined && pathStyle !== '' && pathStyle !== '0' && pathStyle !== '1') throw refuse('AVIARY_S3_FORCE_PATH_STYLE', `expected 1 or 0; got "${pathStyle.slice(0, 20)}".`);
  return {
    bucket,
    endpoint,
    region: env.AVIARY_S3_REGION?.trim() || 'us-east-1',
    accessKeyId: env.AVIARY_S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.AVIARY_S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: pathStyle === '1',
  };
}

function bytes(env: NodeJS.ProcessEnv, name: string, refuse: Refuse): number | undefined {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return undefined;
  if (!/^[1-9]\d{0,15}$/.test(value)) throw refuse(name, `expected a whole number above 0; got "${value.slice(0, 100)}".`);
  return Number(value);
}
