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
  try {
    if (draft.text === '') localStorage.removeItem(key(me, chat));
    else localStorage.setItem(key(me, chat), JSON.stringify(draft));
  } catch {
    // full or refused: the draft lives as long as the page
  }
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
