import { createServer } from 'node:http';
import { urlPreview } from './app.js';

const env = (name: string): string => process.env[name] ?? (console.error(`set ${name}`), process.exit(2));
const app = urlPreview({ appId: env('APP_ID'), appSecret: env('APP_SECRET'), domain: process.env.PREVIEW_DOMAIN ?? 'example.com' });
const port = Number(process.env.PORT ?? 3000);
createServer(app.listener.node).listen(port, () => console.log(`URL previews on http://localhost:${port}/events`));
