import { fileKind, formatFileSize, kindIcon } from './fileFormat';
import type { Uploads } from './useUploads';
import './files.css';

/** The composer's files: each with its progress bar while it uploads, Cancel, and why it failed (with Try again when that may help). */
export function UploadList({ uploads }: { uploads: Uploads }) {
  if (uploads.items.length === 0) return null;
  return (
    <ul className="upload-list" aria-label="Files to send">
      {uploads.items.map((item) => {
        const percent = item.total > 0 ? Math.min(100, Math.round((item.sent / item.total) * 100)) : 0;
        return (
          <li key={item.key} className={`upload-row ${item.state}`} aria-label={item.file.name}>
            <span className="file-icon" aria-hidden="true">
              {kindIcon(fileKind(item.file.type, item.file.name))}
            </span>
            <span className="upload-text">
              <span className="file-name">{item.file.name}</span>
              <span className="file-size">
                {formatFileSize(item.file.size)}
                {item.state === 'uploading' && ` · ${percent}%`}
                {item.state === 'done' && ' · ready'}
              </span>
              {item.state === 'uploading' && <progress max={100} value={percent} aria-label={`Uploading ${item.file.name}`} />}
              {item.problem && (
                <span className="upload-problem" role="alert">
                  {item.problem}
                </span>
              )}
            </span>
            {item.retryable && (
              <button type="button" className="quiet" onClick={() => uploads.retry(item.key)}>
                Try again
              </button>
            )}
            <button
              type="button"
              className="icon-button"
              aria-label={item.state === 'uploading' ? `Cancel the upload of ${item.file.name}` : `Remove ${item.file.name}`}
              title={item.state === 'uploading' ? 'Cancel the upload' : 'Remove'}
              onClick={() => uploads.cancel(item.key)}
            >
              ×
            </button>
          </li>
        );
      })}
    </ul>
  );
}
