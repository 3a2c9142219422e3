/**
 * Attachment validation (docs/reference/attachments.md) for the `attachments` parameter and for an app's answer to
 * `chat.generateUrlPreview`. Input is JSON-decoded but otherwise untrusted; the result is normalised
 * (numeric strings → numbers, "true" → true, colours lowercased, URLs trimmed, nulls dropped).
 */

import { Attachment, AttachmentButton, AttachmentDownload, attachmentLimits as limits } from '@aviary/protocol';
import { readAction } from './action.js';
import { readViews } from './attachment-views.js';
import {
  catchInvalidField,
  definedOnly,
  describeValue,
  expectArray,
  expectObject,
  InvalidField,
  isAbsent,
  readBoolean,
  readNumber,
  readString,
  readWebUrl,
  type FieldResult,
  type JsonObject,
} from './json-fields.js';

const attachmentFields = Object.keys(Attachment.properties);

/** Validates the `attachments` parameter: an array holding at most one Attachment. */
export function validateAttachments(value: unknown, parameter = 'attachments'): FieldResult<Attachment[]> {
  return catchInvalidField(() => {
    if (!Array.isArray(value)) throw new InvalidField(parameter, `${parameter} must be an array of attachments; got ${describeValue(value)}`);
    if (value.length > limits.perMessage) {
      throw new InvalidField(parameter, `a message carries at most one attachment; ${parameter} has ${value.length}`);
    }
    return value.map((item, index) => readAttachment(item, `${parameter}[${index}]`));
  });
}

/**
 * Validates an app's answer to chat.generateUrlPreview: `{attachment: {...}}`, or the attachment itself.
 * Other top-level fields of a wrapped answer are ignored, as the response is otherwise unspecified.
 */
export function validateUrlPreviewAnswer(body: unknown): FieldResult<Attachment> {
  const wrapped = typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, 'attachment');
  return catchInvalidField(() => readAttachment(wrapped ? (body as { attachment: unknown }).attachment : body, 'attachment'));
}

function readAttachment(value: unknown, path: string): Attachment {
  const attachment = expectObject(value, path, attachmentFields);
  return definedOnly<Attachment>({
    id: readString(attachment, 'id', path, { maxLength: limits.idLength, nonEmpty: true }),
    appId: readString(attachment, 'appId', path, { maxLength: limits.idLength }),
    title: readString(attachment, 'title', path, { maxLength: limits.titleLength }),
    description: readString(attachment, 'description', path, { maxLength: limits.descriptionLength }),
    color: readColor(attachment, path),
    url: readWebUrl(attachment, 'url', path),
    forward: readBoolean(attachment, 'forward', path),
    views: isAbsent(attachment.views) ? undefined : readViews(attachment.views, `${path}.views`),
    downloads: isAbsent(attachment.downloads) ? undefined : readDownloads(attachment.downloads, `${path}.downloads`),
    buttons: isAbsent(attachment.buttons) ? undefined : readButtons(attachment.buttons, `${path}.buttons`),
  });
}

function readColor(attachment: JsonObject, path: string): string | undefined {
  const at = `${path}.color`;
  const value = attachment.color;
  if (isAbsent(value)) return undefined;
  if (typeof value === 'string' && /^#[0-9a-fA-F]{6}$/.test(value)) return value.toLowerCase();
  throw new InvalidField(at, `${at} must be a colour written #rrggbb, e.g. #1a2b3c; got ${describeValue(value)}`);
}

function readDownloads(value: unknown, path: string): AttachmentDownload[] {
  return expectArray(value, path, limits.downloads, 'download').map((item, index) => {
    const at = `${path}[${index}]`;
    const download = expectObject(item, at, Object.keys(AttachmentDownload.properties));
    return definedOnly<AttachmentDownload>({
      src: readWebUrl(download, 'src', at, true)!,
      mime: readString(download, 'mime', at, { maxLength: limits.fileNameLength }),
      filename: readString(download, 'filename', at, { maxLength: limits.fileNameLength }),
      size: readNumber(download, 'size', at, { min: 0, max: Number.MAX_SAFE_INTEGER, integer: true }),
    });
  });
}

function readButtons(value: unknown, path: string): AttachmentButton[] {
  const buttons = expectArray(value, path, limits.buttons, 'button').map((item, index) => readButton(item, `${path}[${index}]`));
  // A press is reported by button id alone, so two buttons with one id could not be told apart.
  buttons.forEach((button, index) => {
    const first = buttons.findIndex((other) => other.id === button.id);
    if (first !== index) {
      const at = `${path}[${index}].id`;
      throw new InvalidField(at, `${at} is ${JSON.stringify(button.id)}, already used by ${path}[${first}]; button ids must be unique`);
    }
  });
  return buttons;
}

function readButton(value: unknown, path: string): AttachmentButton {
  const button = expectObject(value, path, Object.keys(AttachmentButton.properties));
  const name = readString(button, 'name', path, { required: true, maxLength: limits.buttonNameLength })!;
  const icon = readWebUrl(button, 'icon', path);
  const id = readString(button, 'id', path, { required: true, maxLength: limits.idLength })!;
  if (isAbsent(button.action)) {
    throw new InvalidField(`${path}.action`, `${path}.action is required: {type, url?, desktopType?, mobileType?, sendContext?}`);
  }
  return definedOnly<AttachmentButton>({ name, icon, id, action: readAction(button.action, `${path}.action`) });
}
