// Writes deploy/docker/nginx.conf, compose.yaml's nginx site: deploy/nginx/aviary.conf with the three
// compose services as the upstream. Run after changing aviary.conf: `npx tsx deploy/docker/nginx.ts`
// (packages/server/test/deploy/container.test.ts fails while the two differ).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderSiteConfig } from '../local/nginx.js';

export const composeNginxFile = fileURLToPath(new URL('./nginx.conf', import.meta.url));

/** The file's whole text: a header, then the site config. */
export function composeNginxConfig(): string {
  const site = renderSiteConfig({ backends: ['aviary-1:8080', 'aviary-2:8080', 'aviary-3:8080'], listen: '80' });
  return ['# Written by deploy/docker/nginx.ts from deploy/nginx/aviary.conf: edit that file, then run it again.', ...site].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(composeNginxFile, composeNginxConfig());
