/** `attachment.views` (docs/reference/attachments.md): widget, html, serviceml and image, each optional. */

import { attachmentLimits, type AttachmentViews, type ImageSource } from '@aviary/protocol';
import { utf8ByteLength, formatCount } from './characters.js';
import { describeProblems } from './describe.js';
import {
  definedOnly,
  describeValue,
  expectObject,
  InvalidField,
  isAbsent,
  readNumber,
  readString,
  readWebUrl,
  type JsonObject,
} from './json-fields.js';
import { validateServiceML } from './parse.js';

const dimension = { min: 0, exclusive: true, max: attachmentLimits.dimension } as const;

export function readViews(value: unknown, path: string): AttachmentViews {
  const views = expectObject(value, path, ['widget', 'html', 'serviceml', 'image']);
  return definedOnly<AttachmentViews>({
    widget: isAbsent(views.widget) ? undefined : readWidget(views.widget, `${path}.widget`),
    html: isAbsent(views.html) ? undefined : readHtml(views.html, `${path}.html`),
    serviceml: readServiceML(views, path),
    image: isAbsent(views.image) ? undefined : readImage(views.image, `${path}.image`),
  });
}

function readWidget(value: unknown, path: string): AttachmentViews['widget'] {
  const widget = expectObject(value, path, ['src', 'width', 'height']);
  return definedOnly({ src: readWebUrl(widget, 'src', path, true)!, ...readSize(widget, path) });
}

function readHtml(value: unknown, path: string): AttachmentViews['html'] {
  const html = expectObject(value, path, ['inline', 'width', 'height']);
  const inline = readString(html, 'inline', path, { required: true, maxLength: Infinity })!;
  const bytes = utf8ByteLength(inline);
  if (bytes > attachmentLimits.inlineHtmlBytes) {
    throw new InvalidField(`${path}.inline`, `${path}.inline is ${formatCount(bytes)} bytes; the limit is ${formatCount(attachmentLimits.inlineHtmlBytes)}`);
  }
  return definedOnly({ inline, ...readSize(html, path) });
}

function readServiceML(views: JsonObject, path: string): string | undefined {
  const at = `${path}.serviceml`;
  const value = views.serviceml;
  if (isAbsent(value)) return undefined;
  if (typeof value !== 'string') throw new InvalidField(at, `${at} must be a ServiceML document (a string); got ${describeValue(value)}`);
  const result = validateServiceML(value);
  if (!result.ok) throw new InvalidField(at, `${at} is not valid ServiceML: ${describeProblems(result.problems)}`);
  return value;
}

function readImage(value: unknown, path: string): AttachmentViews['image'] {
  const image = expectObject(value, path, ['original', 'thumbnail', 'filename']);
  if (isAbsent(image.original)) throw new InvalidField(`${path}.original`, `${path}.original is required: {src, width?, height?}`);
  return definedOnly({
    original: readImageSource(image.original, `${path}.original`),
    thumbnail: isAbsent(image.thumbnail) ? undefined : readImageSource(image.thumbnail, `${path}.thumbnail`),
    filename: readString(image, 'filename', path, { maxLength: attachmentLimits.fileNameLength }),
  });
}

function readImageSource(value: unknown, path: string): ImageSource {
  const source = expectObject(value, path, ['src', 'width', 'height']);
  return definedOnly({ src: readWebUrl(source, 'src', path, true)!, ...readSize(source, path) });
}

function readSize(object: JsonObject, path: string): { width?: number; height?: number } {
  return definedOnly({
    width: readNumber(object, 'width', path, dimension),
    height: readNumber(object, 'height', path, dimension),
  });
}
