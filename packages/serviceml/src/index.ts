/** @aviary/serviceml: ServiceML and attachment validation and rendering. Pure: no I/O, no globals. */

export { parseServiceML, validateServiceML, MAX_DOCUMENT_BYTES, MAX_NESTING_DEPTH } from './parse.js';
export { describeProblems } from './describe.js';
export { serializeServiceML } from './serialize.js';
export { renderServiceMLToHtml, escapeHtml } from './render-html.js';
export { renderServiceMLToText } from './render-text.js';
export { validateAttachments, validateUrlPreviewAnswer } from './attachment.js';
export type { Attachment, AttachmentButton, AttachmentDownload } from './attachment.js';
export type { AttachmentViews, ImageSource } from './attachment-views.js';
export { validateAction, normaliseActionType, actionTypes, desktopTypes, mobileTypes } from './action.js';
export type { Action, ActionType, DesktopType, MobileType } from './action.js';
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
