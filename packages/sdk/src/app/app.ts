/**
 * The app layer: handlers registered by what they answer (`app.command('weather', …)`) instead of by
 * event name, over the event listener, with the person's own API client in every handler's context.
 * The first registered handler that matches an event handles it; an event nobody matches is
 * acknowledged with 200 `{}`. Middleware (`app.use`) runs around the handler for every event.
 * `app.install` tokens go to the installation store before any middleware or handler runs, so that
 * `ctx.client` acts as the person who installed the app.
 */
import { AviaryClient, type AviaryClientOptions } from '../client.js';
import type { Attachment, AviaryEvent, EventName, EventOf, ToastAnswer, UserId } from '../types.js';
import { memoryInstallationStore, type Installation, type InstallationStore } from './installations.js';
import { createEventListener, type EventAnswer, type EventContext, type EventListener, type EventListenerOptions } from './listener.js';
import { matchesPreviewDomain, matchesText } from './matching.js';
import { runMiddleware, type Middleware } from './middleware.js';
import { socketModeReceiver, type SocketModeOptions, type SocketModeReceiver } from './socketMode.js';
import { respondTo, type ResponseReply, type ResponseResult } from './respond.js';

export interface AppContext extends EventContext {
  /** The event being handled (for middleware, which runs for every event). */
  readonly event: AviaryEvent;
  /** What middleware found for the handlers (a tenant, a user record…); starts empty for each event. */
  readonly state: Record<string, unknown>;
  /** An API client acting as the event's person, with the token of their `app.install`; throws if there is none. */
  readonly client: AviaryClient;
  /** The event's person's installation, if the store has one. */
  readonly installation: Installation | undefined;
  /** The bot's client, when `botToken` was given. */
  readonly bot: AviaryClient | undefined;
  /**
   * Answers the event now (with a toast, an attachment, or nothing) while the handler goes on: the
   * service stops waiting, so a handler slower than its answer window (10 s) no longer fails the event.
   * Reply later with `respond`. Called twice, it throws; after it, what the handler returns is ignored.
   */
  ack(answer?: AckAnswer): void;
  /**
   * A reply through the event's `responseUrl` (slash commands, buttons, message and ServiceML actions):
   * to the person alone (the default), to the chat (`responseType: 'inChat'`), or replacing the app's
   * message that carried the button (`replaceOriginal: true`). Up to 5 within 30 minutes of the event.
   */
  respond(reply: ResponseReply | string): Promise<ResponseResult>;
}

/** What `ack` may answer: a toast for a `client.*` event, an attachment for a URL preview. */
export type AckAnswer = ToastAnswer | Attachment | { attachment: Attachment | null };

export type AppHandler<E, Answer> = (event: E, ctx: AppContext) => Answer | undefined | void | Promise<Answer | undefined | void>;

/** The events `app.action` handles: a click on a ServiceML `<action>`, or a press on an attachment's button. */
export type ActionEvent = EventOf<'client.servicemlAction'> | Extract<EventOf<'client.pressButton'>, { button: 'attachmentButton' }>;

export interface AppOptions extends Omit<EventListenerOptions, 'on' | 'onEvent'> {
  /** Where the Aviary server is, for `ctx.client` and `ctx.bot` (such as http://localhost:8080). */
  baseUrl?: string | undefined;
  /** The app's bot token (`aviary app bot --enable`), for `ctx.bot`; undefined (an unset variable) is none. */
  botToken?: string | undefined;
  /** Where `app.install` tokens are kept (default: in memory, lost when the process ends). */
  installationStore?: InstallationStore;
  /** Passed to every client the app makes (retries, timeout…). */
  clientOptions?: Omit<AviaryClientOptions, 'baseUrl' | 'token'>;
}

export type AppMiddleware = Middleware<AppContext>;

export interface AviaryApp {
  /** Middleware for every event, in the order added, around the handler: `app.use(async (ctx, next) => { …; await next(); })`. */
  use(middleware: AppMiddleware): AviaryApp;
  /** `/name text` typed by a person; answer a toast. */
  command(name: string | RegExp, handler: AppHandler<EventOf<'client.slashCommand'>, ToastAnswer>): AviaryApp;
  /** A ServiceML `<action id>` clicked, or an attachment button (by its `id`) pressed; answer a toast. */
  action(actionId: string | RegExp, handler: AppHandler<ActionEvent, ToastAnswer>): AviaryApp;
  /** A message to the app's bot; with a pattern, only a message whose text contains it (a string) or matches it. */
  message(handler: AppHandler<EventOf<'chat.receiveMessage'>, never>): AviaryApp;
  message(pattern: string | RegExp, handler: AppHandler<EventOf<'chat.receiveMessage'>, never>): AviaryApp;
  /** A link to `domain` (`example.com`, or `*.example.com` for its subdomains) was posted; answer its attachment. */
  preview(domain: string, handler: AppHandler<EventOf<'chat.generateUrlPreview'>, Attachment>): AviaryApp;
  /** A person installed the app; their token is in the store before this runs. A throw fails the install. */
  installed(handler: AppHandler<EventOf<'app.install'>, never>): AviaryApp;
  /** A person uninstalled the app; their token is gone from the store (and revoked) before this runs. */
  uninstalled(handler: AppHandler<EventOf<'app.uninstall'>, never>): AviaryApp;
  /** Any event by name, for what the shortcuts above do not cover (message actions, client buttons). */
  event<N extends EventName>(name: N, handler: AppHandler<EventOf<N>, NonNullable<EventAnswer<N>>>): AviaryApp;
  /**
   * Socket Mode: the app's events over a WebSocket it opens to `baseUrl` with its secret, so it needs no
   * public URL; `await app.socketMode().start()`. Reconnects with backoff after a drop.
   */
  socketMode(options?: Pick<SocketModeOptions, 'minReconnectDelayMs' | 'maxReconnectDelayMs' | 'logger'>): SocketModeReceiver;
  /** The listener underneath: `listener.node`, `listener.fastify`, `listener.express`. */
  readonly listener: EventListener;
  readonly handle: EventListener['handle'];
  readonly installationStore: InstallationStore;
}

interface Route {
  name: EventName;
  matches: (event: AviaryEvent) => boolean;
  handler: AppHandler<AviaryEvent, unknown>;
}

export function createApp(options: AppOptions): AviaryApp {
  const { baseUrl, botToken, installationStore = memoryInstallationStore(), clientOptions = {}, ...listenerOptions } = options;
  const routes: Route[] = [];
  const middleware: AppMiddleware[] = [];
  const clientFor = (token: string) => {
    if (!baseUrl) throw new TypeError('createApp needs baseUrl (the Aviary server’s URL) for ctx.client and ctx.bot');
    return new AviaryClient({ ...clientOptions, baseUrl, token });
  };
  const bot = botToken ? clientFor(botToken) : undefined;

  function route<N extends EventName>(name: N, matches: (event: EventOf<N>) => boolean, handler: AppHandler<EventOf<N>, unknown>): AviaryApp {
    routes.push({ name, matches: matches as Route['matches'], handler: handler as Route['handler'] });
    return app;
  }

  async function contextFor(event: AviaryEvent, base: EventContext, ack: (answer?: AckAnswer) => void): Promise<AppContext> {
    const installation = await installationStore.find(event.userId);
    const responseUrl = 'responseUrl' in event ? event.responseUrl : undefined;
    return {
      ...base,
      event,
      state: {},
      installation,
      bot,
      ack,
      respond: (reply) => {
        if (responseUrl === undefined) return Promise.reject(new TypeError(`ctx.respond: this ${event.name} event carries no responseUrl (only client.slashCommand, client.pressButton, client.messageAction and client.servicemlAction sent to the listener do)`));
        return respondTo(responseUrl, typeof reply === 'string' ? { text: reply } : reply, { fetch: clientOptions.fetch });
      },
      get client(): AviaryClient {
        if (!installation) throw new Error(`${event.userId} has not installed the app (no token in the installation store), so ctx.client cannot act as them; use ctx.bot`);
        return clientFor(installation.token);
      },
    };
  }

  async function dispatch(event: AviaryEvent, base: EventContext): Promise<unknown> {
    if (event.name === 'app.install') return install(event, base);
    if (event.name === 'app.uninstall') await installationStore.delete(event.userId);
    return runRoute(event, base);
  }

  /**
   * Runs middleware and the handler; the listener's answer is what they return, or what `ctx.ack` gave as
   * soon as it is called (the rest then runs on, and a later throw goes to `onError`, not to the service).
   */
  async function runRoute(event: AviaryEvent, base: EventContext): Promise<unknown> {
    const found = routes.find((candidate) => candidate.name === event.name && candidate.matches(event));
    if (!found && middleware.length === 0) return undefined;
    let acked: { answer: unknown } | undefined;
    let answerNow: (answer: unknown) => void = () => undefined;
    const ackedAnswer = new Promise<unknown>((resolve) => (answerNow = resolve));
    const ack = (answer?: AckAnswer): void => {
      if (acked) throw new Error(`ctx.ack() was called twice for one ${event.name} event`);
      acked = { answer };
      answerNow(answer);
    };
    const ctx = await contextFor(event, base, ack);
    const handled = runMiddleware(middleware, ctx, async () => (found ? found.handler(event, ctx) : undefined));
    return new Promise<unknown>((resolve, reject) => {
      void ackedAnswer.then(resolve);
      handled.then(
        (answer) => resolve(acked ? acked.answer : answer),
        (error: unknown) => (acked ? reportAfterAck(error, event) : reject(error)),
      );
    });
  }

  function reportAfterAck(error: unknown, event: AviaryEvent): void {
    if (listenerOptions.onError) listenerOptions.onError(error, event);
    else console.error(`aviary: the ${event.name} handler failed after ctx.ack()`, error);
  }

  /** Keeps the token, then runs the handler; if that throws, the install fails, so the token goes again. */
  async function install(event: EventOf<'app.install'>, base: EventContext): Promise<unknown> {
    const userId: UserId = event.userId;
    await installationStore.save({ userId, token: event.userToken, installedAt: (options.now ?? Date.now)() });
    try {
      return await runRoute(event, base);
    } catch (error) {
      await installationStore.delete(userId);
      throw error;
    }
  }

  const listener = createEventListener({ ...listenerOptions, onEvent: dispatch as EventListenerOptions['onEvent'] });
  const always = () => true;
  const app: AviaryApp = {
    use: (added) => {
      if (typeof added !== 'function') throw new TypeError('app.use(middleware) needs a function (ctx, next) => …');
      middleware.push(added);
      return app;
    },
    command: (name, handler) => route('client.slashCommand', (event) => matchesText(name, event.command, 'whole'), handler),
    action: (actionId, handler) => {
      route('client.servicemlAction', (event) => matchesText(actionId, event.actionId, 'whole'), handler);
      return route('client.pressButton', (event) => event.button === 'attachmentButton' && matchesText(actionId, event.buttonId, 'whole'), handler as AppHandler<EventOf<'client.pressButton'>, ToastAnswer>);
    },
    message: (
      patternOrHandler: string | RegExp | AppHandler<EventOf<'chat.receiveMessage'>, never>,
      handler?: AppHandler<EventOf<'chat.receiveMessage'>, never>,
    ) => {
      if (typeof patternOrHandler === 'function') return route('chat.receiveMessage', always, patternOrHandler);
      if (!handler) throw new TypeError('app.message(pattern, handler) needs a handler');
      return route('chat.receiveMessage', (event) => matchesText(patternOrHandler, event.message.text, 'part'), handler);
    },
    preview: (domain, handler) => route('chat.generateUrlPreview', (event) => matchesPreviewDomain(domain, event.url), handler),
    installed: (handler) => route('app.install', always, handler),
    uninstalled: (handler) => route('app.uninstall', always, handler),
    event: (name, handler) => route(name, always, handler),
    socketMode: (socketOptions = {}) => {
      if (!baseUrl) throw new TypeError('Socket Mode needs baseUrl (the Aviary server’s URL) in createApp');
      return socketModeReceiver(listener, { ...socketOptions, baseUrl, appId: options.appId, appSecret: options.appSecret });
    },
    listener,
    handle: listener.handle,
    installationStore,
  };
  return app;
}
