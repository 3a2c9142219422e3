import type { api, ParamsOf } from '@aviary/protocol';
import { checkUrl, describeProblems, validateAttachments, validateServiceML, type Attachment } from '@aviary/serviceml';
import { invalidParameter } from '../errors.js';
import { checkFileIds } from './files/attachFiles.js';
import { checkVisibleName } from './names.js';

/**
 * The checks of a message's content that need no database (chat.sendMessage, chat.scheduleMessage,
 * chat.updateMessage and replies through a response URL alike): made before any transaction opens.
 */

export interface CheckedContent {
  mentions?: string[];
  visibleTo?: string[];
  attachments?: Attachment[];
}

/** The checks that need no database: ServiceML, attachments, sendAs, and id lists without repeats. */
export function checkContent(input: ParamsOf<typeof api.chat.sendMessage>, appId: string | null): CheckedContent {
  checkSaysSomething(input);
  checkServiceml(input.serviceml);
  if (input.alsoInChannel !== undefined && input.threadParent === undefined) {
    throw invalidParameter('alsoInChannel', 'alsoInChannel goes with threadParent: it sends a thread reply to the channel too; leave it out for a plain message.');
  }
  if (input.visibleTo !== undefined && input.threadParent !== undefined) {
    // A thread's summary and read markers are everyone's who sees its root: a reply some of them could not see would show there.
    throw invalidParameter('visibleTo', 'A thread reply is seen by everyone who sees its thread; send a message shown to only some people outside threads.');
  }
  checkFileIds(input.files);
  if (input.sendAs !== undefined) checkVisibleName('sendAs.name', input.sendAs.name);
  if (input.sendAs?.profileImage !== undefined) {
    const check = checkUrl(input.sendAs.profileImage, ['http', 'https']);
    if (!check.ok) throw invalidParameter('sendAs.profileImage', `sendAs.profileImage must be an http or https URL; ${check.reason}.`);
  }
  return { mentions: unique(input.mentions), visibleTo: unique(input.visibleTo), attachments: checkAttachments(input.attachments, appId) };
}

/**
 * A text of blank characters only (spaces, line breaks) is no message, unless something else speaks for
 * it: ServiceML, attachments or files.
 */
export function checkSaysSomething(input: { text: string; serviceml?: string | undefined; attachments?: unknown[] | undefined; files?: string[] | undefined }): void {
  if (input.text.trim() !== '' || input.serviceml !== undefined || (input.attachments?.length ?? 0) > 0 || (input.files?.length ?? 0) > 0) return;
  throw invalidParameter('text', 'text has only blank characters: write something (to remove a message, delete it).');
}

/** A message's ServiceML, when given, is a valid document (chat.sendMessage and chat.updateMessage alike). */
export function checkServiceml(serviceml: string | undefined): void {
  if (serviceml === undefined) return;
  const result = validateServiceML(serviceml);
  if (!result.ok) throw invalidParameter('serviceml', `serviceml is not valid ServiceML: ${describeProblems(result.problems)}.`);
}

/** A message's attachments as stored, when given: checked field by field and stamped with the sending app. */
export function checkAttachments(input: unknown[] | undefined, appId: string | null): Attachment[] | undefined {
  if (input === undefined) return undefined;
  const result = validateAttachments(input);
  if (!result.ok) throw invalidParameter(result.parameter, result.description);
  return result.value.map((attachment) => stampApp(attachment, appId));
}

/** An attachment belongs to the app that sent it, whatever appId the caller wrote. */
function stampApp(attachment: Attachment, appId: string | null): Attachment {
  const { appId: _claimed, ...rest } = attachment;
  return appId === null ? rest : { ...rest, appId };
}

const unique = (ids: string[] | undefined): string[] | undefined => (ids === undefined ? undefined : [...new Set(ids)]);
