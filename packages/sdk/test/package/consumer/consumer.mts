// A consumer's TypeScript, checked by `tsc` in a fresh project against the packed tarball. Each
// expect-error directive must meet a real type error in the published declarations: tsc fails on one that does not.
import {
  AviaryApiError,
  AviaryClient,
  createApp,
  fileInstallationStore,
  toChannelId,
  type AviaryErrorCode,
  type ChannelId,
  type ErrorCode,
  type EventOf,
  type UserId,
} from '@aviary/sdk';

const client = new AviaryClient({ baseUrl: 'http://127.0.0.1:8080', token: 'token', timeoutMs: 5_000 });

export async function sendTo(channelId: ChannelId, userId: UserId): Promise<string> {
  const { uid } = await client.chat.sendMessage({ to: channelId, text: 'hello' });
  await client.chat.sendMessage({ to: userId, text: 'hello' });
  // @ts-expect-error a ChannelId is not a UserId
  await client.users.getPublicProfile({ userId: channelId });
  // @ts-expect-error a plain string is not an id until it is checked (toChannelId)
  await client.channels.getInfo({ channelId: 'g:aaaaaaaaaaaaaaaa' });
  await client.channels.getInfo({ channelId: toChannelId('g:aaaaaaaaaaaaaaaa') });
  return uid;
}

export function describeError(error: unknown): string {
  if (!(error instanceof AviaryApiError)) return 'not an API error';
  const code: AviaryErrorCode = error.code;
  const known: ErrorCode = 'UnknownChannel';
  // @ts-expect-error ErrorCode is a union of the registry's codes, not any string
  const misspelt: ErrorCode = 'UnknownChanel';
  return `${code} ${known} ${misspelt} ${error.parameter ?? '(no parameter)'}`;
}

const app = createApp({
  appId: 'a:consumer',
  appSecret: 'secret',
  baseUrl: 'http://127.0.0.1:8080',
  installationStore: fileInstallationStore('./installations.json'),
});
app.command('weather', (event: EventOf<'client.slashCommand'>) => ({ text: `Sunny in ${event.text}` }));
// @ts-expect-error a slash command answers a toast, {text}, not {txt}
app.command('misspelt', () => ({ txt: 'Sunny' }));
app.event('client.pressButton', () => ({ text: 'pressed' }));
// @ts-expect-error a client.* handler's answer is typed too
app.event('client.messageAction', () => ({ txt: 'done' }));
// @ts-expect-error a button's toast is {text} as well
app.action('approve', () => ({ txt: 'approved' }));
// @ts-expect-error app.install's answer is ignored: a handler has nothing to return
app.installed(() => ({ text: 'welcome' }));
app.preview('example.com', (event) => ({ title: 'Preview', url: event.url }));
app.event('chat.generateUrlPreview', () => ({ attachment: null }));
app.message(/hello/, async (event, ctx) => {
  const first = event.message.attachments?.[0];
  // @ts-expect-error noUncheckedIndexedAccess: the first attachment may be absent
  const title: string | undefined = event.message.attachments[0].title;
  await ctx.bot?.chat.sendMessage({ to: event.userId, text: `${first?.title ?? ''}${title ?? ''}` });
});
export const handle = app.handle;
