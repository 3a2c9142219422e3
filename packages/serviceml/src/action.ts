/**
 * Action (docs/reference/integrations.md): what a button, slash command or ServiceML `<action>` does when used.
 * The vocabulary is the protocol's; the ServiceML schema and the JSON validator both read it from here.
 */

import { Action, actionTypes, desktopTypes, mobileTypes } from '@aviary/protocol';
import {
  catchInvalidField,
  definedOnly,
  describeValue,
  expectObject,
  InvalidField,
  isAbsent,
  readBoolean,
  readWebUrl,
  type FieldResult,
  type JsonObject,
} from './json-fields.js';

export type ActionType = Action['type'];
export type DesktopType = NonNullable<Action['desktopType']>;
export type MobileType = NonNullable<Action['mobileType']>;

/** Older SDKs name sendEvent after the service that receives it. */
const actionTypeAliases: Readonly<Record<string, ActionType>> = {
  sendToAppService: 'sendEvent',
  sendToApp: 'sendEvent',
};

/** Every way of writing an action type, aliases included. */
export const actionTypeSpellings: readonly string[] = [...actionTypes, ...Object.keys(actionTypeAliases)];

export function normaliseActionType(value: string): ActionType | undefined {
  if (isOneOf(actionTypes, value)) return value;
  return Object.hasOwn(actionTypeAliases, value) ? actionTypeAliases[value] : undefined;
}

/** Whether an action of this type opens `url`, which it then requires. */
export const actionTypeNeedsUrl = (type: ActionType): boolean => type !== 'sendEvent';

export function isOneOf<T extends string>(choices: readonly T[], value: string): value is T {
  return (choices as readonly string[]).includes(value);
}

/** "modal or sidebar", "sendEvent, openWidget or openBrowser". */
export function listChoices(choices: readonly string[]): string {
  return choices.length === 1 ? choices[0]! : `${choices.slice(0, -1).join(', ')} or ${choices[choices.length - 1]}`;
}

const actionFields = Object.keys(Action.properties);

/** Validates one JSON Action; `path` names it in errors (e.g. `attachments[0].buttons[1].action`). */
export function validateAction(value: unknown, path: string): FieldResult<Action> {
  return catchInvalidField(() => readAction(value, path));
}

export function readAction(value: unknown, path: string): Action {
  const object = expectObject(value, path, actionFields);
  const type = readActionType(object, path);
  const url = readWebUrl(object, 'url', path, actionTypeNeedsUrl(type));
  return definedOnly<Action>({
    type,
    url,
    desktopType: readChoice(object, 'desktopType', path, desktopTypes),
    mobileType: readChoice(object, 'mobileType', path, mobileTypes),
    sendContext: readBoolean(object, 'sendContext', path),
  });
}

function readActionType(object: JsonObject, path: string): ActionType {
  const at = `${path}.type`;
  const raw = object.type;
  const expected = `${at} must be ${listChoices(actionTypes)}`;
  if (isAbsent(raw)) throw new InvalidField(at, `${at} is required; it must be ${listChoices(actionTypes)}`);
  const type = typeof raw === 'string' ? normaliseActionType(raw) : undefined;
  if (type === undefined) throw new InvalidField(at, `${expected}; got ${describeValue(raw)}`);
  return type;
}

function readChoice<T extends string>(object: JsonObject, key: string, path: string, choices: readonly T[]): T | undefined {
  const at = `${path}.${key}`;
  const raw = object[key];
  if (isAbsent(raw)) return undefined;
  if (typeof raw === 'string' && isOneOf(choices, raw)) return raw;
  throw new InvalidField(at, `${at} must be ${listChoices(choices)}; got ${describeValue(raw)}`);
}
