/** Parameter shapes several methods share. */
import { Type } from '@sinclair/typebox';
import { serviceClients } from '../events.js';
import { oneOf } from '../params.js';

/**
 * An app id (`appId`). Its shape is not checked: an id that names no app of the person's is
 * answered like one that does not exist (UnknownApp), so that nobody learns which ids are taken.
 */
export const AppIdParam = Type.String({ minLength: 1, maxLength: 100, description: 'an app id (a:…)' });

/** Which client the person uses: it picks the widget type of the open* answers, and is the URL's serviceClient. */
export const ServiceClientParam = Type.Optional(oneOf(serviceClients, 'desktop (the default), ios or android'));

/** Ids an app chose (attachments, buttons, ServiceML actions). */
export const AppChosenId = (what: string) => Type.String({ minLength: 1, maxLength: 255, description: `the ${what}’s id, as its app chose it` });
