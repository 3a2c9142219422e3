import type { FileInfoModel } from '@aviary/protocol';
import { useCallback, useRef, useState } from 'react';
import { methods } from '../../api/client';
import { isShownImage } from './fileFormat';

/** Messages per files.list page: the most it gives at once. */
const PAGE_MESSAGES = 100;

export interface EarlierImages {
  /** The images of the chat's messages older than those the history had loaded, oldest first. */
  images: FileInfoModel[];
  /** True while files.list may have older ones. */
  more: boolean;
  /** Asks for the next older page (once at a time); answers when it has come. */
  loadMore(): Promise<void>;
}

/**
 * The chat's images before its loaded history, page by page (files.list), for the viewer to go past the
 * first image loaded. The first page starts before the oldest message loaded then (`before`); later ones
 * follow files.list's cursor, so the pages meet the history with nothing missed or doubled in between.
 */
export function useEarlierImages(chat: string, before: string | undefined, hasOlder: boolean): EarlierImages {
  const [images, setImages] = useState<FileInfoModel[]>([]);
  /** Where the next page starts: undefined before the first, null once the chat's first file is listed. */
  const [cursor, setCursor] = useState<string | null>();
  const loading = useRef<Promise<void> | undefined>(undefined);
  const more = cursor === undefined ? hasOlder && before !== undefined : cursor !== null;

  const loadMore = useCallback((): Promise<void> => {
    if (loading.current) return loading.current;
    const from = cursor === undefined ? before : cursor;
    if (from === null || from === undefined) return Promise.resolve();
    loading.current = methods.files
      .list({ chat, cursor: from, limit: PAGE_MESSAGES })
      .then(({ files, nextCursor }) => {
        setImages((known) => [...oldestFirst(files.filter(({ file }) => isShownImage(file))), ...known]);
        setCursor(nextCursor ?? null);
      })
      .finally(() => {
        loading.current = undefined;
      });
    return loading.current;
  }, [chat, cursor, before]);

  return { images, more, loadMore };
}

/** files.list gives the newest message first, each message's files in their order: oldest message first, the same order within each. */
function oldestFirst(listed: Array<{ file: FileInfoModel; messageUid: string }>): FileInfoModel[] {
  const byMessage = new Map<string, FileInfoModel[]>();
  for (const { file, messageUid } of listed) byMessage.set(messageUid, [...(byMessage.get(messageUid) ?? []), file]);
  return [...byMessage.values()].reverse().flat();
}
