import type { FileInfoModel } from '@aviary/protocol';
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import type { Message } from '../../api/client';
import { isShownImage } from './fileFormat';
import { OpenImageContext } from './viewerContext';

// Fetched the first time an image opens, as the app's other dialogs are: the initial script stays small.
const ImageViewer = lazy(() => import('./ImageViewer').then((module) => ({ default: module.ImageViewer })));

/**
 * The images of a chat's loaded messages, oldest first (each once, however many messages carry it), for
 * the viewer that a thumbnail of `children` opens.
 */
export function ChatImages({ messages, children }: { messages: Message[]; children: ReactNode }) {
  const [viewing, setViewing] = useState<string>();
  const images = useMemo(() => imagesOf(messages), [messages]);
  return (
    <OpenImageContext.Provider value={setViewing}>
      {children}
      {viewing !== undefined && (
        <Suspense fallback={null}>
          <ImageViewer images={images} current={viewing} onShow={setViewing} onClose={() => setViewing(undefined)} />
        </Suspense>
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
