import { afterAll, beforeAll, expect, it } from 'vitest';
import { botNameOf } from '../../src/core/commands/apps.js';
import { startTestServer, stopTestServer, type TestServer } from '../helpers/server.js';

it('names a bot "<App name> Bot", but not "… Bot Bot"', () => {
  expect(botNameOf('Weather')).toEqual({ first_name: 'Weather', last_name: 'Bot' });
  expect(botNameOf('Trial Bot')).toEqual({ first_name: 'Trial', last_name: 'Bot' });
  expect(botNameOf('deploy  bot')).toEqual({ first_name: 'deploy', last_name: 'bot' });
  // Only a word of its own: "Robot" and "Chatbot" are names, not a suffix.
  expect(botNameOf('Robot')).toEqual({ first_name: 'Robot', last_name: 'Bot' });
  expect(botNameOf('Chatbot')).toEqual({ first_name: 'Chatbot', last_name: 'Bot' });
  expect(botNameOf('Bot')).toEqual({ first_name: 'Bot', last_name: 'Bot' });
});

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer('sqlite');
});
afterAll(async () => {
  await stopTestServer(t);
});

it('the bot of an app called "Trial Bot" is "Trial Bot" to everyone', async () => {
  const team = await t.f.team();
  const developer = await t.f.person(team.id);
  const app = await t.f.app(team.id, developer.id, { name: 'Trial Bot' });
  const { botToken, botUserId } = await t.f.bot(app.id);
  const info = await t.call('users.getInfo', { query: { token: botToken } });
  expect(info.body).toMatchObject({ id: botUserId, firstName: 'Trial', lastName: 'Bot', isBot: true });
});
