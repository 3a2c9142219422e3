/**
 * Action and Attachment (docs/reference/attachments.md) in the form the server stores and sends them: validated and
 * normalised by @aviary/serviceml (aliases resolved, URLs trimmed, colours lowercased, nulls dropped).
 * What a caller may send is looser (`"true"`, numeric strings, `sendToApp`); serviceml reads that and
 * names the exact path of a problem. These schemas describe the result, which every reader may rely on.
 */
import { Type, type Static } from '@sinclair/typebox';
import { AppId } from './ids.js';
import { HttpUrl, oneOf } from './params.js';

export const actionTypes = ['sendEvent', 'openWidget', 'openBrowser'] as const;
export const desktopTypes = ['modal', 'sidebar'] as const;
export const mobileTypes = ['modal'] as const;

/** What a button, slash command, message action or ServiceML `<action>` does when used. */
export const Action = Type.Object(
  {
    type: oneOf(actionTypes),
    /** Present for openWidget and openBrowser: the page to open. */
    url: Type.Optional(HttpUrl),
    desktopType: Type.Optional(oneOf(desktopTypes)),
    mobileType: Type.Optional(oneOf(mobileTypes)),
    /** openBrowser: append the event parameters to the URL. */
    sendContext: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, description: 'what using a button, command or action does: send an event, open a widget or a browser page' },
);

/**
 * The limits of an attachment's fields (docs/reference/attachments.md): the schemas below and serviceml's
 * validation both read them here, so the two cannot drift apart.
 */
export const attachmentLimits = {
  /** Attachments a message carries. */
  perMessage: 1,
  idLength: 255,
  titleLength: 1024,
  descriptionLength: 4096,
  /** Third-party inline HTML, in UTF-8 bytes. */
  inlineHtmlBytes: 64 * 1024,
  /** Widths and heights, in CSS pixels: more than 0, at most this. */
  dimension: 10_000,
  downloads: 10,
  buttons: 10,
  buttonNameLength: 100,
  /** A download's or an image's file name, and a download's MIME type. */
  fileNameLength: 255,
} as const;

const Dimension = Type.Number({ exclusiveMinimum: 0, maximum: attachmentLimits.dimension });
const size = { width: Type.Optional(Dimension), height: Type.Optional(Dimension) };

export const ImageSource = Type.Object({ src: HttpUrl, ...size }, { additionalProperties: false });

export const AttachmentViews = Type.Object(
  {
    /** An iframe showing the app's page. */
    widget: Type.Optional(Type.Object({ src: HttpUrl, ...size }, { additionalProperties: false })),
    html: Type.Optional(
      Type.Object(
        { inline: Type.String({ minLength: 1, description: `third-party HTML of at most ${attachmentLimits.inlineHtmlBytes} UTF-8 bytes, shown only in a sandboxed iframe` }), ...size },
        { additionalProperties: false },
      ),
    ),
    serviceml: Type.Optional(Type.String({ description: 'a valid ServiceML document' })),
    image: Type.Optional(
      Type.Object(
        { original: ImageSource, thumbnail: Type.Optional(ImageSource), filename: Type.Optional(Type.String({ maxLength: attachmentLimits.fileNameLength })) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: 'a client shows the first present of widget, html, serviceml and image' },
);

export const AttachmentDownload = Type.Object(
  {
    src: HttpUrl,
    mime: Type.Optional(Type.String({ maxLength: attachmentLimits.fileNameLength })),
    filename: Type.Optional(Type.String({ maxLength: attachmentLimits.fileNameLength })),
    size: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'bytes' })),
  },
  { additionalProperties: false },
);

/** A press sends `client.pressButton` with `button: "attachmentButton"` and the button's `id`. */
export const AttachmentButton = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: attachmentLimits.buttonNameLength }),
    icon: Type.Optional(HttpUrl),
    id: Type.String({ minLength: 1, maxLength: attachmentLimits.idLength, description: 'unique among the attachment’s buttons' }),
    action: Action,
  },
  { additionalProperties: false },
);

export const Attachment = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1, maxLength: attachmentLimits.idLength, description: 'chosen by the app; echoed back as attachmentId' })),
    appId: Type.Optional(AppId('the app behind the attachment, set by the server', attachmentLimits.idLength)),
    title: Type.Optional(Type.String({ maxLength: attachmentLimits.titleLength })),
    description: Type.Optional(Type.String({ maxLength: attachmentLimits.descriptionLength })),
    color: Type.Optional(Type.String({ pattern: '^#[0-9a-f]{6}$', description: '#rrggbb, lowercase' })),
    url: Type.Optional(HttpUrl),
    forward: Type.Optional(Type.Boolean()),
    views: Type.Optional(AttachmentViews),
    downloads: Type.Optional(Type.Array(AttachmentDownload, { maxItems: attachmentLimits.downloads })),
    buttons: Type.Optional(Type.Array(AttachmentButton, { maxItems: attachmentLimits.buttons })),
  },
  { additionalProperties: false, description: 'an Attachment: a card under a message (docs/reference/attachments.md)' },
);

export type Action = Static<typeof Action>;
export type AttachmentViews = Static<typeof AttachmentViews>;
export type ImageSource = Static<typeof ImageSource>;
export type AttachmentDownload = Static<typeof AttachmentDownload>;
export type AttachmentButton = Static<typeof AttachmentButton>;
export type Attachment = Static<typeof Attachment>;
