import { checkUrl } from '@aviary/serviceml';
import { useRef } from 'react';
import type { Attachment } from '../api/client';

type ImageViewData = NonNullable<NonNullable<Attachment['views']>['image']>;

/** The thumbnail (or the original, scaled) in the message; a press opens the original in a viewer. */
export function ImageView({ image, alt }: { image: ImageViewData; alt: string }) {
  const viewer = useRef<HTMLDialogElement>(null);
  // The caller checked the original's URL; a thumbnail that fails the same check is not used.
  const preview = image.thumbnail && checkUrl(image.thumbnail.src, ['http', 'https']).ok ? image.thumbnail : image.original;
  return (
    <>
      <button type="button" className="image-button" onClick={() => viewer.current?.showModal()} aria-label={`View ${alt}`}>
        <img src={preview.src} alt={alt} width={preview.width} height={preview.height} referrerPolicy="no-referrer" loading="lazy" />
      </button>
      <dialog ref={viewer} className="image-viewer" aria-label={alt}>
        <button type="button" className="icon-button viewer-close" aria-label="Close the image" onClick={() => viewer.current?.close()}>
          ×
        </button>
        <img src={image.original.src} alt={alt} referrerPolicy="no-referrer" />
      </dialog>
    </>
  );
}
