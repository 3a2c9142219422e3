import { attachmentWithOurNames, flockMarkupParam, flockMethodAliases, serviceMLFromFlockML } from '@aviary/protocol';
import { usesFlockNaming } from '../core/queries/apps.js';
import type { Db } from '../store/store.js';
import type { Caller } from './caller.js';
import { ApiError, invalidParameter } from './errors.js';
import type { RawParams } from './params.js';

/**
 * Calls under Flock's names (docs/flock-compatibility.md), for an app with Flock-compatible naming: a
 * legacy method name (`groups.list`) stands for ours, and `flockml` (a `<flockml>` document) is taken
 * wherever `serviceml` is, in attachments' views too. Every other app's calls are not looked at twice:
 * the app's setting is read only when a call uses one of Flock's names.
 */
export interface FlockNamedCall {
  /** The parameters under our names. */
  raw: RawParams;
  /** A refusal of a parameter given under Flock's name, naming it so. */
  refusal(error: unknown): unknown;
}

const markup = flockMarkupParam;

/** Our method for a Flock legacy name: the dispatcher finds its handler by it. */
export function flockAliasTarget(name: string): string | undefined {
  return Object.hasOwn(flockMethodAliases, name) ? flockMethodAliases[name].method : undefined;
}

/** Undefined when the call uses none of Flock's names; NoSuchMethod for a Flock method name an app without the setting calls. */
export async function flockNamedCall(db: Db, caller: Caller, methodName: string, raw: RawParams): Promise<FlockNamedCall | undefined> {
  const alias = Object.hasOwn(flockMethodAliases, methodName) ? flockMethodAliases[methodName] : undefined;
  if (alias === undefined && raw[markup] === undefined && !mentionsFlockml(raw.attachments)) return undefined;
  // A person's session is no app: Flock's names are an app's setting.
  if (caller.appId === null || !(await usesFlockNaming(db, caller.appId))) {
    if (alias === undefined) return undefined;
    throw new ApiError('NoSuchMethod', `There is no method named "${methodName}"; it is Flock's name for ${alias.method}, which only an app with Flock-compatible naming may call by it.`);
  }
  /** Our name of each parameter given under Flock's → Flock's, so that a refusal names what the caller gave. */
  const flockNameOf = new Map<string, string>();
  const renamed: RawParams = { ...raw };
  const rename = (flockName: string, ours: string, value: (given: unknown) => unknown = (given) => given) => {
    flockNameOf.set(ours, flockName);
    if (renamed[flockName] === undefined) return;
    if (renamed[ours] !== undefined) throw invalidParameter(flockName, `Give ${flockName} or ${ours}, not both.`);
    renamed[ours] = value(renamed[flockName]);
    delete renamed[flockName];
  };
  for (const [flockName, ours] of Object.entries(alias?.params ?? {})) rename(flockName, ours);
  if (renamed[markup] !== undefined) rename(markup, 'serviceml', serviceMLFromFlockML);
  if (renamed.attachments !== undefined) renamed.attachments = attachmentsWithOurNames(renamed.attachments, flockNameOf);
  return { raw: renamed, refusal: (error) => underFlockNames(error, flockNameOf) };
}

/** Cheap for every other app's call: a form's JSON text is searched, a JSON body's list looked at, neither parsed nor written again. */
function mentionsFlockml(attachments: unknown): boolean {
  if (typeof attachments === 'string') return attachments.includes(`"${markup}"`);
  return Array.isArray(attachments) && attachments.some((attachment) => attachmentWithOurNames(attachment) !== undefined);
}

/** `attachments[].views.flockml` as `views.serviceml`; a list that is not one is left for the decoder to refuse. */
function attachmentsWithOurNames(given: unknown, flockNameOf: Map<string, string>): unknown {
  let list = given;
  if (typeof given === 'string') {
    try {
      list = JSON.parse(given);
    } catch {
      return given;
    }
  }
  if (!Array.isArray(list)) return given;
  return list.map((attachment: unknown, index) => {
    const renamed = attachmentWithOurNames(attachment);
    if (renamed === undefined) return attachment;
    const at = `attachments[${index}].views.`;
    if (renamed.both) throw invalidParameter(`${at}${markup}`, `Give views.${markup} or views.serviceml, not both.`);
    flockNameOf.set(`${at}serviceml`, `${at}${markup}`);
    return renamed.attachment;
  });
}

/** A refusal of a parameter the caller gave under Flock's name, naming it so (and FlockML for ServiceML). */
function underFlockNames(error: unknown, flockNameOf: Map<string, string>): unknown {
  const parameter = error instanceof ApiError ? error.context.parameter : undefined;
  const flockName = typeof parameter === 'string' ? flockNameOf.get(parameter) : undefined;
  if (!(error instanceof ApiError) || flockName === undefined) return error;
  let description = error.message.replaceAll(parameter as string, flockName);
  if (flockName.endsWith(markup)) description = description.replaceAll('ServiceML', 'FlockML');
  return new ApiError(error.code, description, { ...error.context, parameter: flockName }, error.headers);
}
