import { Transform, type TransformCallback } from 'node:stream';
import { ApiError, invalidParameter } from '../../errors.js';
import { detectFileType, SNIFF_BYTES } from './fileType.js';
import { imageSize, type ImageSize } from './imageSize.js';

export interface ReceiveLimits {
  /** The most bytes one file may have (config.files.maxFileBytes). */
  maxFileBytes: number;
  /** What is left of the team's quota when the upload began. */
  quotaLeft: number;
  /** The bytes the file was announced to have (files.upload's `size`): one more, or fewer at the end, fails the stream. */
  size?: number;
}

export const fileTooLarge = (limit: number, parameter = 'file'): ApiError =>
  new ApiError('FileTooLarge', `A file may have at most ${limit} bytes (${describeBytes(limit)}) on this server; send a smaller file, or split it.`, { parameter });

export const quotaExceeded = (left: number, parameter = 'file'): ApiError =>
  new ApiError(
    'QuotaExceeded',
    `The team has ${describeBytes(Math.max(0, left))} left of its file storage quota, less than this file; delete files the team no longer needs (files.delete), or ask the server’s operator to raise AVIARY_FILE_TEAM_QUOTA_BYTES.`,
    { parameter },
  );

const notTheSizeAnnounced = (size: number, received: string): ApiError =>
  invalidParameter('size', `The file has ${received} bytes where \`size\` announced ${size}; send the file’s exact size in bytes, or no \`size\`.`);

export function describeBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${Number(value.toFixed(1))} ${units[unit]}`;
}

/**
 * What every uploaded byte passes through on its way to storage: it counts them against the limits
 * (failing the stream at the first byte too many, so storage keeps nothing) and reads the type from
 * the first SNIFF_BYTES. It holds at most those first bytes; the rest flows through as it comes. With
 * a `size` announced, a file of any other length fails it too: storage, told that size, trusts it.
 */
export class ReceivedFile extends Transform {
  received = 0;
  mimeType = 'application/octet-stream';
  /** An image's size as shown, when its first bytes tell it. */
  size: ImageSize | undefined;
  private head: Buffer[] | undefined = [];
  private headLength = 0;

  constructor(
    private readonly name: string,
    private readonly limits: ReceiveLimits,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += chunk.length;
    const { size } = this.limits;
    if (size !== undefined && this.received > size) return callback(notTheSizeAnnounced(size, 'more'));
    if (this.received > this.limits.maxFileBytes) return callback(fileTooLarge(this.limits.maxFileBytes));
    if (this.received > this.limits.quotaLeft) return callback(quotaExceeded(this.limits.quotaLeft));
    if (this.head === undefined) return callback(null, chunk);
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < SNIFF_BYTES) return callback();
    this.releaseHead(callback);
  }

  override _flush(callback: TransformCallback): void {
    const { size } = this.limits;
    if (size !== undefined && this.received !== size) return callback(notTheSizeAnnounced(size, String(this.received)));
    if (this.head === undefined) return callback();
    this.releaseHead(callback);
  }

  private releaseHead(callback: TransformCallback): void {
    const head = Buffer.concat(this.head!, this.headLength);
    this.head = undefined;
    detectFileType(head, this.name).then(
      async (mimeType) => {
        this.mimeType = mimeType;
        if (mimeType.startsWith('image/')) this.size = await imageSize(head);
        callback(null, head);
      },
      (error: unknown) => callback(error as Error),
    );
  }
}
