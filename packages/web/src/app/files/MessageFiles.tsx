import type { FileInfoModel } from '@aviary/protocol';
import { useContext } from 'react';
import { fileKind, fitWithin, formatFileSize, isShownImage, kindIcon } from './fileFormat';
import { OpenImageContext } from './viewerContext';
import './files.css';

/** The thumbnail's box in the history: the server's thumbnail is at most 360 pixels a side. */
const THUMBNAIL_BOX = { width: 360, height: 240 };

/**
 * The files a message carries, in the order sent: images as thumbnails (a press opens the viewer), video
 * and sound playing in place (the server answers Range, so they seek), every other file as a card with
 * its icon, name and size that downloads it.
 */
export function MessageFiles({ files }: { files: FileInfoModel[] }) {
  return (
    <div className="message-files">
      {files.map((file) => (
        <MessageFile key={file.id} file={file} />
      ))}
    </div>
  );
}

function MessageFile({ file }: { file: FileInfoModel }) {
  const openImage = useContext(OpenImageContext);
  const kind = fileKind(file.mimeType, file.name);
  if (isShownImage(file)) {
    const box = fitWithin(file.width, file.height, THUMBNAIL_BOX);
    return (
      <a
        className="file-image"
        href={file.url}
        target="_blank"
        rel="noopener"
        aria-label={`View ${file.name}`}
        onClick={(event) => {
          if (!openImage) return;
          event.preventDefault();
          openImage(file.id);
        }}
      >
        <img src={file.thumbnailUrl ?? file.url} alt={file.name} width={box?.width} height={box?.height} loading="lazy" />
      </a>
    );
  }
  if (file.inline && kind === 'video') {
    return (
      <figure className="file-media">
        <video src={file.url} controls preload="metadata" aria-label={file.name} />
        <figcaption>
          <FileLink file={file} />
        </figcaption>
      </figure>
    );
  }
  if (file.inline && kind === 'audio') {
    return (
      <figure className="file-media">
        <figcaption>
          <FileLink file={file} />
        </figcaption>
        <audio src={file.url} controls preload="metadata" aria-label={file.name} />
      </figure>
    );
  }
  return (
    <a className="file-card" href={file.url} download={file.name} title={file.name} aria-label={`Download ${file.name}, ${formatFileSize(file.size)}`}>
      <span className="file-icon" aria-hidden="true">
        {kindIcon(kind)}
      </span>
      <span className="file-text">
        <span className="file-name">{file.name}</span>
        <span className="file-size">{formatFileSize(file.size)}</span>
      </span>
      <span className="file-download" aria-hidden="true">
        ⬇
      </span>
    </a>
  );
}

function FileLink({ file }: { file: FileInfoModel }) {
  return (
    <a href={file.url} download={file.name} className="file-link">
      {file.name} <span className="file-size">· {formatFileSize(file.size)}</span>
    </a>
  );
}
