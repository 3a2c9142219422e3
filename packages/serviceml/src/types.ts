/** The ServiceML syntax tree (docs/reference/serviceml.md). Attribute types are exact: the parser only builds valid trees. */

import type { ActionType, DesktopType, MobileType } from './action.js';

export interface Problem {
  /** 1-based line; CR, LF and CRLF each end a line. */
  line: number;
  /** 1-based column, counted in Unicode code points. */
  column: number;
  /** A sentence a developer can act on, without the position prefix. */
  message: string;
}

export type ServiceMLResult = { ok: true; ast: ServiceMLRoot } | { ok: false; problems: Problem[] };

/** What validateServiceML answers: the same problems as parseServiceML, without a tree. */
export type ServiceMLCheck = { ok: true } | { ok: false; problems: Problem[] };

export interface ServiceMLRoot {
  type: 'root';
  children: ServiceMLNode[];
}

export type ServiceMLNode = ServiceMLText | ServiceMLElement;

export interface ServiceMLText {
  type: 'text';
  /** Entities and character references already decoded. */
  value: string;
}

export type FormattingElementName = 'b' | 'strong' | 'i' | 'em' | 'u';

export type NoAttributes = Record<string, never>;

export interface LinkAttributes {
  /** An http, https or mailto URL, trimmed. */
  href: string;
}

export interface UserAttributes {
  /** `u:` followed by 16 lowercase base32 characters. */
  userId: string;
}

export interface ServiceMLActionAttributes {
  id: string;
  /** Aliases (sendToAppService, sendToApp) are already normalised to sendEvent. */
  type: ActionType;
  url?: string;
  desktopType?: DesktopType;
  mobileType?: MobileType;
  sendContext?: boolean;
}

export interface LinkElement {
  type: 'element';
  name: 'a';
  attributes: LinkAttributes;
  children: ServiceMLNode[];
}

export interface FormattingElement {
  type: 'element';
  name: FormattingElementName;
  attributes: NoAttributes;
  children: ServiceMLNode[];
}

export interface BreakElement {
  type: 'element';
  name: 'br';
  attributes: NoAttributes;
  children: [];
}

export interface UserElement {
  type: 'element';
  name: 'user';
  attributes: UserAttributes;
  /** The fallback name, shown when the user's current name is unknown. */
  children: ServiceMLText[];
}

export interface ActionElement {
  type: 'element';
  name: 'action';
  attributes: ServiceMLActionAttributes;
  children: ServiceMLNode[];
}

export type ServiceMLElement = LinkElement | FormattingElement | BreakElement | UserElement | ActionElement;

export type ServiceMLElementName = ServiceMLElement['name'];

/** What the renderers need to know about users; the caller decides where names come from. */
export interface RenderOptions {
  /** The user's current display name, or undefined when unknown (the element's text is shown instead). */
  userName(userId: string): string | undefined;
}
