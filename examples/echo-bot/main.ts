import { createServer } from 'node:http';
import { echoBot } from './app.js';

const env = (name: string): string => process.env[name] ?? (console.error(`set ${name}`), process.exit(2));
const app = echoBot({ appId: env('APP_ID'), appSecret: env('APP_SECRET'), botToken: env('BOT_TOKEN'), baseUrl: process.env.AVIARY_URL ?? 'http://127.0.0.1:8080' });
const port = Number(process.env.PORT ?? 3000);
createServer(app.listener.node).listen(port, () => console.log(`echo bot listening on http://localhost:${port}/events`));
