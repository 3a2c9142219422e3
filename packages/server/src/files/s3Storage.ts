import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { S3Config } from '../config/files.js';
import type { ByteRange, FileStorage, StoredObject } from './fileStorage.js';

/**
 * Bytes per part of a multipart upload: S3's smallest part (but the last) is 5 MiB. An upload holds
 * at most two parts in memory (one being sent, the next being read), so memory per upload is bounded
 * by twice this whatever the file's size.
 */
export const S3_PART_BYTES = 5 * 1024 * 1024;

/** The most one PutObject may carry; a larger file goes as a multipart upload even when its size is known. */
export const S3_PUT_MAX_BYTES = 5 * 1024 * 1024 * 1024;

/**
 * An S3-compatible bucket through @aws-sdk/client-s3. A file whose size is known before its first byte
 * (files.upload with `size`, a resumable upload's finish) is one PutObject, streamed as it comes. Of
 * one whose size is not, a file smaller than one part is one PutObject; a larger one is a multipart
 * upload, part by part as the bytes come (one sent while the next is read), aborted when the stream
 * fails. A multipart upload costs the store more than one PutObject: it keeps the parts, then puts them
 * together (s3rver copies every byte a second time).
 *
 * Requests carry a checksum only where S3 requires one (`requestChecksumCalculation`): by default the
 * SDK sends a streamed body as `aws-chunked` with a CRC32 trailer, which several S3-compatible stores do
 * not decode (s3rver keeps the chunk framing as if it were the file's bytes). The signature (and TLS)
 * still cover each request.
 */
export class S3FileStorage implements FileStorage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials: config.accessKeyId && config.secretAccessKey ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } : undefined,
      requestChecksumCalculation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable, size?: number): Promise<void> {
    if (size !== undefined && size <= S3_PUT_MAX_BYTES) return this.putStreamed(key, body, size);
    return this.putInParts(key, body);
  }

  /**
   * One PutObject whose body is the stream itself, nothing held. A stream that fails (a byte past
   * `size`, or fewer than it: the caller's count) aborts the request. Both the answer and the stream's
   * end are awaited: a stream that fails just after its `size`th byte fails the put though S3 took them.
   */
  private async putStreamed(key: string, body: Readable, size: number): Promise<void> {
    const abort = new AbortController();
    let failure: unknown;
    const ended = finished(body).catch((error: unknown) => {
      failure ??= error;
      abort.abort(error);
    });
    const sent = this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: size }), { abortSignal: abort.signal }).catch((error: unknown) => {
      failure ??= error;
      // The stream is read no further: ended.
      body.destroy();
    });
    await Promise.all([sent, ended]);
    if (failure === undefined) return;
    // S3 keeps nothing of a PutObject cut off, but some S3-compatible stores (s3rver) keep what an aborted
    // request had sent, and a stream that failed after its last byte was stored whole: removed.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })).catch(() => undefined);
    throw body.errored ?? failure;
  }

  private async putInParts(key: string, body: Readable): Promise<void> {
    let chunks: Buffer[] = [];
    let buffered = 0;
    let uploadId: string | undefined;
    const parts: Array<{ ETag?: string; PartNumber: number }> = [];
    // One part is sent while the next one is read: the client is not kept waiting on the store.
    let inFlight: Promise<void> = Promise.resolve();
    const sendPart = async (Body: Buffer, PartNumber: number) => {
      uploadId ??= (await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key }))).UploadId;
      const { ETag } = await this.client.send(new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber, Body }));
      parts.push({ ETag, PartNumber });
    };
    let partNumber = 0;
    const nextPart = async () => {
      const Body = Buffer.concat(chunks, buffered);
      chunks = [];
      buffered = 0;
      await inFlight;
      partNumber += 1;
      inFlight = sendPart(Body, partNumber);
      // Awaited before the next part and at the end; until then a failure must not go unhandled.
      inFlight.catch(() => undefined);
    };
    try {
      for await (const chunk of body) {
        chunks.push(chunk as Buffer);
        buffered += (chunk as Buffer).length;
        if (buffered >= S3_PART_BYTES) await nextPart();
      }
      if (partNumber === 0) {
        await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: Buffer.concat(chunks, buffered) }));
        return;
      }
      if (buffered > 0) await nextPart();
      await inFlight;
      await this.client.send(new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    } catch (error) {
      chunks = [];
      await inFlight.catch(() => undefined);
      if (uploadId !== undefined) await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }));
    return answer.Body as Readable;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /**
   * The objects whose keys start with `prefix` (every object of the bucket without one: what `aviary
   * backup` records), a page of listing (1,000 at most) at a time. A multipart upload a crash left
   * unfinished is no object: the bucket's lifecycle rule removes its parts (docs/reference/files.md "Orphans").
   */
  async *list(prefix?: string): AsyncGenerator<StoredObject> {
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken }));
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        yield { key: object.Key, size: object.Size ?? 0, etag: object.ETag ?? null, lastModified: object.LastModified?.getTime() ?? null };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken !== undefined);
  }
}
