import { createServer } from 'node:http';
import { pollApp } from './app.js';

const env = (name: string): string => process.env[name] ?? (console.error(`set ${name}`), process.exit(2));
const poll = pollApp({ appId: env('APP_ID'), appSecret: env('APP_SECRET'), botToken: env('BOT_TOKEN'), baseUrl: process.env.AVIARY_URL ?? 'http://127.0.0.1:8080' });
const port = Number(process.env.PORT ?? 3000);
createServer(poll.node).listen(port, () => console.log(`polls on http://localhost:${port}/events, the compose widget on http://localhost:${port}/widget`));
