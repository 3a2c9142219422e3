export { AviaryClient, type AviaryClientOptions, type CallOptions, type IdTyping } from './client.js';
export { AviaryApiError, AviaryTimeoutError, type AviaryErrorCode } from './errors.js';
export { signIn, signOut, type SessionOptions, type SignedIn } from './session.js';
export { toAppId, toChannelId, toChatId, toMessageUid, toUserId } from './ids.js';
// Every type of ./types.js: the protocol's shapes with branded ids, listed once, there.
export type * from './types.js';
export { verifyEventToken, EventTokenError, type EventTokenErrorReason, type VerifyEventTokenOptions } from './app/verify.js';
export {
  createEventListener,
  NoRetryError,
  type AnyEventHandler,
  type EventAnswer,
  type EventContext,
  type EventHandler,
  type EventHandlers,
  type EventListener,
  type EventListenerOptions,
  type EventRequest,
  type FastifyListenerOptions,
  type FastifyListenerPlugin,
  type ListenerAnswer,
} from './app/listener.js';
export { respondTo, type RespondOptions, type ResponseReply, type ResponseResult } from './app/respond.js';
export { createApp, type AckAnswer, type ActionEvent, type AppContext, type AppHandler, type AppMiddleware, type AppOptions, type AviaryApp } from './app/app.js';
export { socketModeReceiver, type SocketModeOptions, type SocketModeReceiver, type SocketModeState } from './app/socketMode.js';
export { fileInstallationStore, memoryInstallationStore, type Installation, type InstallationStore } from './app/installations.js';
export {
  parseWidgetRequest,
  verifyWidgetRequest,
  WidgetRequestError,
  type VerifiedWidgetRequest,
  type VerifyWidgetRequestOptions,
  type WidgetRequest,
} from './app/widget.js';
