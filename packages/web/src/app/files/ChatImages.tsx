import type { FileInfoModel } from '@aviary/protocol';
import { lazy, useEffect, useMemo, useState, type ReactNode } from 'react';
import { LoadedPart } from '../LoadedPart';
import type { Message } from '../../api/client';
import { isShownImage } from './fileFormat';
import { useEarlierImages } from './useEarlierImages';
import { OpenImageContext } from './viewerContext';

// Fetched the first time an image opens, as the app's other dialogs are: the initial script stays small.
const ImageViewer = lazy(() => import('./ImageViewer').then((module) => ({ default: module.ImageViewer })));

/**
 * The images of a chat's loaded messages, oldest first (each once, however many messages carry it), for
 * the viewer that a thumbnail of `children` opens. With `earlier` (the chat's history, which may not be
 * loaded to its start), the viewer goes on past the first image loaded: the chat's older images are
 * listed page by page (files.list), the next page as soon as the first image shows.
 */
export function ChatImages({ messages, earlier, children }: { messages: Message[]; earlier?: { chat: string; hasOlder: boolean }; children: ReactNode }) {
  const [viewing, setViewing] = useState<string>();
  const loaded = useMemo(() => imagesOf(messages), [messages]);
  const older = useEarlierImages(earlier?.chat ?? '', messages[0]?.uid, earlier?.hasOlder ?? false);
  const images = useMemo(() => {
    const shown = new Set(loaded.map((image) => image.id));
    return [...older.images.filter((image) => !shown.has(image.id)), ...loaded];
  }, [older.images, loaded]);
  const first = viewing !== undefined && images[0]?.id === viewing;
  // The person went back past the first image: it shows once a page has brought one (pages may bring none).
  const [goingBack, setGoingBack] = useState(false);
  const { more, loadMore } = older;
  useEffect(() => {
    if (!first || !more) return;
    void loadMore().catch(() => setGoingBack(false));
  }, [first, more, loadMore]);
  useEffect(() => {
    if (!goingBack) return;
    const index = images.findIndex((image) => image.id === viewing);
    if (index > 0) setViewing(images[index - 1]!.id);
    if (index !== 0 || !more) setGoingBack(false);
    // Asked again, should the page asked for on showing the first image have failed.
    else void loadMore().catch(() => setGoingBack(false));
  }, [goingBack, images, viewing, more, loadMore]);

  return (
    <OpenImageContext.Provider value={setViewing}>
      {children}
      {viewing !== undefined && (
        <LoadedPart retryKey={viewing} onDismiss={() => setViewing(undefined)}>
          <ImageViewer
            images={images}
            current={viewing}
            earlier={more}
            onEarlier={() => setGoingBack(true)}
            onShow={(fileId) => {
              setGoingBack(false);
              setViewing(fileId);
            }}
            onClose={() => {
              setGoingBack(false);
              setViewing(undefined);
            }}
          />
        </LoadedPart>
      )}
    </OpenImageContext.Provider>
  );
}

function imagesOf(messages: Message[]): FileInfoModel[] {
  const seen = new Set<string>();
  return messages.flatMap((message) =>
    message.deletedAt !== undefined
      ? []
      : (message.files ?? []).filter((file) => {
          if (!isShownImage(file) || seen.has(file.id)) return false;
          seen.add(file.id);
          return true;
        }),
  );
}
