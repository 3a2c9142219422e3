export { AviaryClient, type AviaryClientOptions } from './client.js';
export { AviaryApiError } from './errors.js';
export { AviaryDeveloperApi, AviaryPeopleApi, type SessionApiOptions } from './sessionApis.js';
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
  type ListenerAnswer,
  type ToastAnswer,
} from './app/listener.js';
export {
  parseWidgetRequest,
  verifyWidgetRequest,
  WidgetRequestError,
  type VerifiedWidgetRequest,
  type VerifyWidgetRequestOptions,
  type WidgetRequest,
} from './app/widget.js';
