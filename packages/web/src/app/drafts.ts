import { useEffect, useState } from 'react';
import type { Mention } from './suggestions';

/** What the composer held for a chat: its text and the people picked in it. */
export interface Draft {
  text: string;
  mentions: Mention[];
}

/** Drafts outlive a reload in the browser's storage, one per person and chat; whatever cannot be stored is only not kept. */
const key = (me: string, chat: string) => `aviary:draft:${me}:${chat}`;

export function loadDraft(me: string, chat: string): Draft {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(key(me, chat)) ?? 'null');
    if (isDraft(stored)) return stored;
  } catch {
    // storage refused (private mode, disabled) or an entry not written by this page: no draft
  }
  return { text: '', mentions: [] };
}

export function saveDraft(me: string, chat: string, draft: Draft): void {
  const wasMarked = isMarked(loadDraft(me, chat));
  try {
    if (draft.text === '') localStorage.removeItem(key(me, chat));
    else localStorage.setItem(key(me, chat), JSON.stringify(draft));
  } catch {
    // full or refused: the draft lives as long as the page
  }
  // Each keystroke saves the draft: the sidebar looks again only when a chat gains or loses its mark.
  if (isMarked(draft) !== wasMarked) changes.dispatchEvent(new Event('change'));
}

/** The name a thread's reply is kept under: not a chat's, so the sidebar marks no chat for it. */
export const threadDraftName = (chat: string, root: string): string => `${chat}/thread/${root}`;

/** A draft the sidebar marks its chat for: one with something written in it. */
const isMarked = (draft: Draft): boolean => draft.text.trim() !== '';

/** This page's own saves that mark or unmark a chat (another tab's saves come as the window's `storage` event). */
const changes = new EventTarget();

/** The chats the person has a draft in, as stored now. */
function draftedChats(me: string): Set<string> {
  const prefix = key(me, '');
  const chats = new Set<string>();
  try {
    for (let index = 0; index < localStorage.length; index += 1) {
      const name = localStorage.key(index);
      if (name?.startsWith(prefix) && isMarked(loadDraft(me, name.slice(prefix.length)))) chats.add(name.slice(prefix.length));
    }
  } catch {
    // storage refused: no drafts kept, none shown
  }
  return chats;
}

const sameSet = (a: Set<string>, b: Set<string>) => a.size === b.size && [...a].every((chat) => b.has(chat));

/** The chats with a draft (the sidebar marks them), kept up to date as this tab or another saves one. */
export function useDraftedChats(me: string): Set<string> {
  const [chats, setChats] = useState(() => draftedChats(me));
  useEffect(() => {
    const update = () => setChats((current) => {
      const now = draftedChats(me);
      return sameSet(current, now) ? current : now;
    });
    update();
    changes.addEventListener('change', update);
    window.addEventListener('storage', update);
    return () => {
      changes.removeEventListener('change', update);
      window.removeEventListener('storage', update);
    };
  }, [me]);
  return chats;
}

function isDraft(value: unknown): value is Draft {
  if (typeof value !== 'object' || value === null) return false;
  const { text, mentions } = value as Record<string, unknown>;
  return (
    typeof text === 'string' &&
    Array.isArray(mentions) &&
    mentions.every((mention) => typeof mention === 'object' && mention !== null && typeof mention.userId === 'string' && typeof mention.label === 'string')
  );
}
