import type { FileInfoModel } from '@aviary/protocol';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Modal } from '../Modal';
import { formatFileSize } from './fileFormat';
import { nextZoom, type Zoom } from './zoom';
import './files.css';

/** The preview is at most this many pixels a side: shown larger, the original is loaded instead. */
const PREVIEW_SIDE = 1600;

/**
 * The images of the open chat, one at a time, in a modal (fetched the first time one opens): zoom in and
 * out (the buttons, the wheel, + and -, 0 to fit), previous and next (the buttons, the arrow keys),
 * Escape closes. Which image shows is the caller's (`current`), so an image arriving live joins the list,
 * and so do the older ones the caller loads when the person goes back past the first (`earlier`).
 */
export function ImageViewer({ images, current, earlier = false, onEarlier, onShow, onClose }: {
  images: FileInfoModel[];
  current: string;
  /** The chat has images before the first of `images`, still to load: going back asks for them (`onEarlier`). */
  earlier?: boolean;
  onEarlier?: () => void;
  onShow: (fileId: string) => void;
  onClose: () => void;
}) {
  const index = images.findIndex((image) => image.id === current);
  const file = images[index];
  const previous = index > 0 ? images[index - 1] : undefined;
  const next = index >= 0 && index < images.length - 1 ? images[index + 1] : undefined;
  const back = previous ? () => onShow(previous.id) : index === 0 && earlier ? onEarlier : undefined;
  const [zoom, setZoom] = useState<Zoom>('fit');
  const [fitScale, setFitScale] = useState(1);
  const stage = useRef<HTMLDivElement>(null);
  const picture = useRef<HTMLImageElement>(null);
  const fullWidth = file?.width ?? picture.current?.naturalWidth ?? 0;

  // Another image opens fitted.
  useEffect(() => setZoom('fit'), [current]);
  const measureFit = useCallback(() => {
    const image = picture.current;
    if (image && fullWidth > 0 && zoom === 'fit') setFitScale(image.clientWidth / fullWidth);
  }, [fullWidth, zoom]);
  // Measured again whenever the drawn image changes size: when it loads, when the dialog lays out, when the window resizes.
  useEffect(() => {
    const image = picture.current;
    if (!image) return;
    const observer = new ResizeObserver(measureFit);
    observer.observe(image);
    return () => observer.disconnect();
  }, [measureFit, current]);

  const scale = zoom === 'fit' ? fitScale : zoom;
  // From "fit", zooming starts at the scale the image is drawn at now (measured at the moment: the one
  // measured when it loaded may predate the dialog's layout).
  const zoomTo = useCallback(
    (direction: 'in' | 'out' | 'fit') => {
      const image = picture.current;
      const drawn = image && fullWidth > 0 && image.clientWidth > 0 ? image.clientWidth / fullWidth : fitScale;
      setZoom((now) => nextZoom(now === 'fit' ? drawn : now, direction));
    },
    [fitScale, fullWidth],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const action: Record<string, () => void> = {
        ArrowLeft: () => back?.(),
        ArrowRight: () => next && onShow(next.id),
        '+': () => zoomTo('in'),
        '=': () => zoomTo('in'),
        '-': () => zoomTo('out'),
        '0': () => zoomTo('fit'),
      };
      const run = action[event.key];
      if (!run) return;
      event.preventDefault();
      run();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [back, next, onShow, zoomTo]);

  // The wheel zooms (a listener of our own: React's wheel listener is passive and may not stop the scroll).
  useEffect(() => {
    const element = stage.current;
    if (!element) return;
    const onWheel = (event: WheelEvent) => {
      if (event.deltaY === 0) return;
      event.preventDefault();
      zoomTo(event.deltaY < 0 ? 'in' : 'out');
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [zoomTo]);

  if (!file) return null;
  const shownWidth = zoom === 'fit' ? undefined : Math.max(1, Math.round(fullWidth * zoom));
  const source = shownWidth !== undefined && shownWidth > PREVIEW_SIDE ? file.url : (file.previewUrl ?? file.url);
  return (
    <Modal title={file.name} onClose={onClose} className="image-viewer-modal">
      <div className="viewer-tools" role="toolbar" aria-label="Image viewer">
        <span className="viewer-group">
          <button type="button" className="secondary" onClick={() => back?.()} disabled={!back} aria-label="Previous image">
            ‹ Previous
          </button>
          <span className="viewer-position">
            {index + 1} of {images.length}
            {earlier ? '+' : ''}
          </span>
          <button type="button" className="secondary" onClick={() => next && onShow(next.id)} disabled={!next} aria-label="Next image">
            Next ›
          </button>
        </span>
        <span className="viewer-gap" />
        <span className="viewer-group">
          <button type="button" className="secondary" onClick={() => zoomTo('out')} aria-label="Zoom out">
            −
          </button>
          <output className="viewer-zoom" aria-label="Zoom" aria-live="polite">
            {Math.round(scale * 100)}%
          </output>
          <button type="button" className="secondary" onClick={() => zoomTo('in')} aria-label="Zoom in">
            +
          </button>
          <button type="button" className="secondary" onClick={() => zoomTo('fit')} aria-pressed={zoom === 'fit'}>
            Fit
          </button>
        </span>
        <a className="secondary viewer-download" href={file.url} download={file.name}>
          Download · {formatFileSize(file.size)}
        </a>
      </div>
      <div ref={stage} className={`viewer-stage${zoom === 'fit' ? ' fit' : ''}`}>
        <img
          ref={picture}
          key={file.id}
          src={source}
          alt={file.name}
          width={shownWidth}
          onLoad={measureFit}
          className="viewer-image"
        />
      </div>
    </Modal>
  );
}
