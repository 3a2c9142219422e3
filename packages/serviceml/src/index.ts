/**
 * @aviary/serviceml: ServiceML parsing, validation and rendering, and the validation of what apps give as
 * JSON (attachments, actions, integrations), each into the protocol's types. Pure: no I/O, no globals.
 */

export { parseServiceML, validateServiceML, MAX_DOCUMENT_BYTES, MAX_NESTING_DEPTH } from './parse.js';
export { describeProblems } from './describe.js';
export { serializeServiceML } from './serialize.js';
export { renderServiceMLToHtml, escapeHtml } from './render-html.js';
export { renderServiceMLToText } from './render-text.js';
export { validateAttachments, validateUrlPreviewAnswer } from './attachment.js';
export { validateAction, normaliseActionType } from './action.js';
export type { ActionType, DesktopType, MobileType } from './action.js';
export { validateIntegrations } from './integrations.js';
/** What the validators return: the protocol's types, named here too for their callers' convenience. */
export type { Action, Attachment, AttachmentButton, AttachmentDownload, AttachmentViews, ImageSource, Integrations } from '@aviary/protocol';
export type { FieldResult } from './json-fields.js';
export { checkUrl, type UrlCheck, type UrlScheme } from './url.js';
export type {
  ActionElement,
  BreakElement,
  FormattingElement,
  FormattingElementName,
  LinkElement,
  Problem,
  RenderOptions,
  ServiceMLActionAttributes,
  ServiceMLCheck,
  ServiceMLElement,
  ServiceMLElementName,
  ServiceMLNode,
  ServiceMLResult,
  ServiceMLRoot,
  ServiceMLText,
  UserElement,
} from './types.js';
