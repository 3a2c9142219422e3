import { createApp, type AviaryApp } from '@aviary/sdk';

export interface EchoBotOptions {
  appId: string;
  appSecret: string;
  /** The Aviary server, for the bot's client. */
  baseUrl: string;
  /** The app's bot token (`aviary app bot --enable`, or the dashboard). */
  botToken: string;
}

/** Answers every direct message to its bot with the same text, and `/echo text` with a toast of the text. */
export function echoBot(options: EchoBotOptions): AviaryApp {
  return echoDirectMessages(createApp(options));
}

/** Makes `app` (created with its bot token) answer every direct message to its bot with the same text. */
export function echoDirectMessages(app: AviaryApp): AviaryApp {
  app.message(async (event, ctx) => {
    await ctx.bot?.chat.sendMessage({ to: event.userId, text: event.message.text });
  });
  app.command('echo', (event) => ({ text: event.text || '(nothing to echo)' }));
  return app;
}
