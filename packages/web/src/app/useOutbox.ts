import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { AviaryApiError, methods, type InteractionAnswer, type Message } from '../api/client';
import type { ConnectionState } from '../stream/connection';
import { HeldMessages } from './heldMessages';

/** A message the person sent that the server has not stored yet. */
export interface PendingMessage {
  /** The client id sent as `id`: every try of one message sends the same, so the server stores it once. */
  id: string;
  chat: string;
  text: string;
  serviceml?: string | undefined;
  /** The people the composer picked with `@` whose names are still in the text: they are notified. */
  mentions?: string[] | undefined;
  /** The files it carries (files.upload's ids), in the order shown. */
  files?: string[] | undefined;
  /**
   * `sending`: a try is under way; `waiting`: the last try did not reach the server, the next waits for
   * the connection; `held`: the server said the person writes too fast (429), or an earlier message of
   * the chat was told so: it goes by itself, in its turn (HeldMessages).
   */
  state: 'sending' | 'waiting' | 'held';
  /** Its place in the order the person wrote. */
  order: number;
}

/** What became of a message once the server answered. */
export type Delivered = { message: Message } | { answer: InteractionAnswer; appId: string };

export interface Outbox {
  pending: PendingMessage[];
  /**
   * Sends now; a try that does not reach the server is kept and tried again, with the same id, once the
   * connection is back. Settles once the server answered: what it stored (or the slash command's answer),
   * undefined when the person cancelled it; rejects with the server's refusal (AviaryApiError).
   */
  send(chat: string, text: string, serviceml: string | undefined, mentions?: string[], files?: string[]): Promise<Delivered | undefined>;
  /** Gives a pending message up: it is not tried again (a try under way may still land). */
  cancel(id: string): void;
}

/** Waiting messages are tried again this often while nothing says the connection is back… */
const RETRY_EVERY_MS = 10_000;

/**
 * The page's messages in flight. A refusal (the server answered) is the composer's to show, but for "too
 * fast" (429): the message is held and goes again after the wait the server named (HeldMessages). A
 * failure to reach the server is no refusal: the message stays, shown as pending, and goes again when the browser
 * is back online, the stream reconnects, or every few seconds, until it is stored or cancelled.
 */
export function useOutbox(connection: ConnectionState): Outbox {
  const [pending, setPending] = useState<PendingMessage[]>([]);
  const settle = useRef(new Map<string, { resolve: (delivered: Delivered | undefined) => void; reject: (error: unknown) => void }>());

  const update = (id: string, change: Partial<PendingMessage> | undefined) =>
    setPending((list) => (change ? list.map((item) => (item.id === id ? { ...item, ...change } : item)) : list.filter((item) => item.id !== id)));

  const latest = useRef(pending);
  latest.current = pending;
  const held = useRef<HeldMessages<PendingMessage>>(undefined);
  const attempt = useCallback((message: PendingMessage) => {
    update(message.id, { state: 'sending' });
    methods.chat.sendFromComposer({ to: message.chat, text: message.text, serviceml: message.serviceml, mentions: message.mentions, files: message.files, id: message.id }).then(
      (result) => {
        const settled = settle.current.get(message.id);
        settle.current.delete(message.id);
        update(message.id, undefined);
        held.current?.settled(message);
        settled?.resolve('message' in result ? { message: result.message } : { answer: result.answer, appId: result.slashCommand.appId });
      },
      (error: unknown) => {
        const settled = settle.current.get(message.id);
        if (!settled) return; // cancelled meanwhile
        if (error instanceof AviaryApiError && error.status === 429) {
          update(message.id, { state: 'held' });
          held.current?.tooFast(message, retryAfterMs(error));
        } else if (error instanceof AviaryApiError) {
          settle.current.delete(message.id);
          update(message.id, undefined);
          held.current?.settled(message);
          settled.reject(error);
        } else update(message.id, { state: 'waiting' });
      },
    );
  }, []);
  held.current ??= new HeldMessages(attempt, (ms, then) => void setTimeout(then, ms));

  const written = useRef(0);
  const send = useCallback<Outbox['send']>(
    (chat, text, serviceml, mentions, files) =>
      new Promise((resolve, reject) => {
        const message: PendingMessage = {
          id: clientId(),
          chat,
          text,
          serviceml,
          mentions: mentions?.length ? mentions : undefined,
          files: files?.length ? files : undefined,
          state: 'sending',
          order: written.current++,
        };
        settle.current.set(message.id, { resolve, reject });
        if (held.current!.holds(chat)) {
          setPending((list) => [...list, { ...message, state: 'held' }]);
          held.current!.enqueue(message);
          return;
        }
        setPending((list) => [...list, message]);
        attempt(message);
      }),
    [attempt],
  );

  const cancel = useCallback((id: string) => {
    settle.current.get(id)?.resolve(undefined);
    settle.current.delete(id);
    const message = latest.current.find((item) => item.id === id);
    if (message) held.current?.settled(message);
    update(id, undefined);
  }, []);

  // Every waiting message goes again when something says the connection may be back.
  const retry = useCallback(() => {
    for (const message of latest.current) if (message.state === 'waiting') attempt(message);
  }, [attempt]);
  const waiting = pending.some((message) => message.state === 'waiting');
  useEffect(() => {
    if (!waiting) return;
    window.addEventListener('online', retry);
    const timer = setInterval(retry, RETRY_EVERY_MS);
    return () => {
      window.removeEventListener('online', retry);
      clearInterval(timer);
    };
  }, [waiting, retry]);
  useEffect(() => {
    if (connection === 'live') retry();
  }, [connection, retry]);

  return useMemo(() => ({ pending, send, cancel }), [pending, send, cancel]);
}

/** How long the server asked to wait (`retryAfter`, in seconds), a second when it did not say. */
function retryAfterMs(error: AviaryApiError): number {
  const seconds = Number(error.body.retryAfter);
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 60) * 1000 : 1000;
}

/** A random client id (crypto.randomUUID needs a secure context; a team's server on plain http is not one). */
function clientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `web-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
