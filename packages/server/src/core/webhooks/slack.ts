import { validateServiceML } from '@aviary/serviceml';
import { invalidParameter } from '../../errors.js';
import { bold, join, link, mrkdwn, plainText, type Rendered } from './mrkdwn.js';
import { cutText } from '../textCut.js';

/**
 * A Slack-shaped incoming-webhook payload read as an Aviary message: `text` (mrkdwn), `blocks`
 * (section, header, divider, context, actions with link buttons, image) and `attachments` (colour,
 * pretext, title, title_link, text, fields, image_url, footer). Exactly what maps, what is ignored and
 * what is refused is docs/reference/webhooks.md "Slack-shaped payloads"; the result then goes through
 * chat.sendMessage's own checks like any message.
 */
export interface ConvertedMessage {
  text: string;
  serviceml?: string;
  attachments?: Array<Record<string, unknown>>;
}

const MAX_BLOCKS = 50;
const MAX_ATTACHMENTS = 20;
const MAX_TEXT = 40_000;
const SLACK_COLORS: Record<string, string> = { good: '#2eb886', warning: '#daa038', danger: '#a30200' };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

export function convertSlackPayload(payload: Json): ConvertedMessage {
  const useMrkdwn = payload.mrkdwn !== false;
  const text = str(payload.text);
  if (payload.text !== undefined && typeof payload.text !== 'string') throw invalidParameter('text', 'text must be a string.');
  const blocks = list(payload.blocks, 'blocks', MAX_BLOCKS).map((block, index) => convertBlock(block, `blocks[${index}]`));
  const slackAttachments = list(payload.attachments, 'attachments', MAX_ATTACHMENTS);
  const body: Rendered[] = blocks.filter((b): b is Rendered => b !== undefined);
  // Slack shows the blocks when there are some (`text` is then the notification), else the text.
  if (body.length === 0 && text !== undefined) body.push(useMrkdwn ? mrkdwn(text) : plainText(text));
  const [first, ...others] = slackAttachments.map(readAttachment);
  if (first?.pretext) body.push(first.pretext);
  for (const other of others) body.push(...other.asBody);
  const attachment = first?.card;
  const joined = join(body, '<br/>', '\n');
  // With nothing else to say, the message's text (its notification) is the first attachment's own words.
  const plain = (text !== undefined ? (useMrkdwn ? mrkdwn(text).plain : text) : joined.plain) || first?.fallback || attachment?.title || attachment?.description;
  if (plain === undefined || plain.trim() === '') {
    throw invalidParameter('text', 'The payload has nothing to post: give text, blocks that show something, or attachments with text.');
  }
  const converted: ConvertedMessage = { text: truncate(plain, MAX_TEXT) };
  if (joined.xml !== '' && joined.xml !== escapedPlain(joined.plain)) converted.serviceml = document(joined.xml);
  if (attachment) converted.attachments = [attachment];
  return converted;
}

function document(xml: string): string {
  const doc = `<serviceml>${xml}</serviceml>`;
  const check = validateServiceML(doc);
  if (!check.ok) throw invalidParameter('blocks', 'The blocks and text make more than a message may hold (ServiceML is at most 16 KiB); send less.');
  return doc;
}

const escapedPlain = (plain: string): string => plainText(plain).xml;

function list(value: unknown, parameter: string, max: number): Json[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw invalidParameter(parameter, `${parameter} must be an array.`);
  if (value.length > max) throw invalidParameter(parameter, `${parameter} may hold at most ${max} items; it has ${value.length}.`);
  return value.map((item, index) => {
    if (!isObject(item)) throw invalidParameter(`${parameter}[${index}]`, `${parameter}[${index}] must be an object.`);
    return item;
  });
}

/** A text object `{type: mrkdwn|plain_text, text}`. */
function textObject(value: unknown, parameter: string): Rendered | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value) || typeof value.text !== 'string') throw invalidParameter(parameter, `${parameter} must be a text object {type, text}.`);
  return value.type === 'mrkdwn' ? mrkdwn(value.text) : plainText(value.text);
}

/** One block as a piece of the body, or undefined for a block that shows nothing here (ignored types). */
function convertBlock(block: Json, parameter: string): Rendered | undefined {
  if (typeof block.type !== 'string') throw invalidParameter(`${parameter}.type`, `${parameter}.type must name the block's type.`);
  switch (block.type) {
    case 'header': {
      const title = textObject(block.text, `${parameter}.text`);
      return title && bold(title);
    }
    case 'section': {
      const parts: Rendered[] = [];
      const text = textObject(block.text, `${parameter}.text`);
      if (text) parts.push(text);
      const fields = Array.isArray(block.fields) ? block.fields : [];
      fields.forEach((field, index) => {
        const rendered = textObject(field, `${parameter}.fields[${index}]`);
        if (rendered) parts.push(rendered);
      });
      if (isObject(block.accessory) && block.accessory.type === 'button') {
        const button = buttonLink(block.accessory, `${parameter}.accessory`);
        if (button) parts.push(button);
      }
      return parts.length > 0 ? join(parts, '<br/>', '\n') : undefined;
    }
    case 'divider':
      return { xml: '──────────', plain: '──────────' };
    case 'context': {
      const elements = Array.isArray(block.elements) ? block.elements : [];
      const parts = elements.flatMap((element, index) =>
        isObject(element) && (element.type === 'mrkdwn' || element.type === 'plain_text') ? [textObject(element, `${parameter}.elements[${index}]`)!] : [],
      );
      return parts.length > 0 ? join(parts, ' · ', ' · ') : undefined;
    }
    case 'actions': {
      const elements = Array.isArray(block.elements) ? block.elements : [];
      const parts = elements.flatMap((element, index) =>
        isObject(element) && element.type === 'button' ? [buttonLink(element, `${parameter}.elements[${index}]`)].filter((b): b is Rendered => b !== undefined) : [],
      );
      return parts.length > 0 ? join(parts, ' · ', ' · ') : undefined;
    }
    case 'image': {
      const title = textObject(block.title, `${parameter}.title`)?.plain ?? str(block.alt_text) ?? 'image';
      return link(block.image_url, title);
    }
    default:
      return undefined;
  }
}

/** A button with a `url` as a link; one without (it would call a Slack app back) shows nothing. */
function buttonLink(button: Json, parameter: string): Rendered | undefined {
  const label = textObject(button.text, `${parameter}.text`)?.plain;
  return label !== undefined && typeof button.url === 'string' ? link(button.url, label) : undefined;
}

interface ReadAttachment {
  card?: Record<string, unknown> & { title?: string; description?: string };
  pretext?: Rendered;
  fallback?: string;
  /** The attachment drawn into the message's body, for those after the first. */
  asBody: Rendered[];
}

function readAttachment(attachment: Json): ReadAttachment {
  const title = str(attachment.title);
  const text = str(attachment.text);
  const fields = Array.isArray(attachment.fields) ? attachment.fields.filter(isObject) : [];
  const lines = [
    ...(text !== undefined ? [mrkdwn(text).plain] : []),
    ...fields.map((field) => [str(field.title), str(field.value) && mrkdwn(String(field.value)).plain].filter(Boolean).join(': ')),
    ...(str(attachment.footer) !== undefined ? [String(attachment.footer)] : []),
  ].filter((line) => line !== '');
  const card: NonNullable<ReadAttachment['card']> = {};
  if (title !== undefined) card.title = truncate(title, 1024);
  if (lines.length > 0) card.description = truncate(lines.join('\n'), 4096);
  const color = slackColor(attachment.color);
  if (color) card.color = color;
  if (typeof attachment.title_link === 'string' && link(attachment.title_link, '').xml.startsWith('<a')) card.url = attachment.title_link;
  if (typeof attachment.image_url === 'string' && link(attachment.image_url, '').xml.startsWith('<a')) card.views = { image: { original: { src: attachment.image_url } } };
  const buttons = (Array.isArray(attachment.actions) ? attachment.actions.filter(isObject) : [])
    .map((action) => (typeof action.url === 'string' && typeof action.text === 'string' ? link(action.url, action.text) : undefined))
    .filter((b): b is Rendered => b !== undefined);
  const pretext = str(attachment.pretext) !== undefined ? mrkdwn(String(attachment.pretext)) : undefined;
  const heading = title !== undefined ? [bold(typeof card.url === 'string' ? link(card.url, title) : plainText(title))] : [];
  const asBody = [...(pretext ? [pretext] : []), ...heading, ...lines.map((line) => plainText(line)), ...buttons];
  const hasCard = Object.keys(card).length > 0;
  return {
    ...(hasCard ? { card } : {}),
    ...(pretext ? { pretext: buttons.length > 0 ? join([pretext, ...buttons], '<br/>', '\n') : pretext } : buttons.length > 0 ? { pretext: join(buttons, ' · ', ' · ') } : {}),
    ...(str(attachment.fallback) !== undefined ? { fallback: String(attachment.fallback) } : {}),
    asBody,
  };
}

function slackColor(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const named = SLACK_COLORS[value.toLowerCase()];
  if (named) return named;
  const hex = value.replace(/^#/, '');
  if (/^[0-9a-fA-F]{6}$/.test(hex)) return `#${hex.toLowerCase()}`;
  if (/^[0-9a-fA-F]{3}$/.test(hex)) return `#${[...hex].map((c) => c + c).join('').toLowerCase()}`;
  return undefined;
}

const truncate = (text: string, max: number): string => (text.length > max ? `${cutText(text, max - 1)}…` : text);
