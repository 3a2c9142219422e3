import type { Config } from '../config.js';

/** A link to one of the web client's pages: absolute on the server's public URL, else a path on this server. */
export const linkTo = (config: Config, path: string): string => (config.publicUrl ? new URL(path, config.publicUrl).href : path);
