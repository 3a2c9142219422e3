/**
 * The apps of the person's team and the person's own install of each, called with a person's session.
 * Installing never shows the person the app's token for them: only the app receives it, in app.install.
 */
import { Type, type Static } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { UserId } from '../ids.js';
import { closedObject } from '../params.js';
import { AppIdParam } from './fields.js';

const Label = Type.Object({ name: Type.String(), icon: Type.Optional(Type.String()) }, { additionalProperties: false });

/** What the client shows of an app's integrations: their labels, never where their actions lead. */
export const PublicIntegrations = Type.Object(
  {
    slashCommands: Type.Array(Type.Object({ name: Type.String(), description: Type.Optional(Type.String()) }, { additionalProperties: false })),
    launcherButton: Type.Optional(Label),
    chatTabButton: Type.Optional(Label),
    attachmentPickerButton: Type.Optional(Label),
    messageAction: Type.Optional(Type.Object({ name: Type.String() }, { additionalProperties: false })),
    /** Present when the app has a home tab (interactions.pressButton with button appHome opens it); its URL is not shown. */
    appHome: Type.Optional(Type.Object({}, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

/** An app of the person's team as the client lists it, with the person's own install of it. */
export const ClientApp = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    icon: Type.Optional(Type.String()),
    botUserId: Type.Optional(UserId),
    /** False while `app.install` could not reach the app (no listener URL, no open `aviary listen`): installing it would fail. */
    installable: Type.Boolean(),
    /** Why it is not installable, in words to show beside the greyed-out Install. */
    notInstallableBecause: Type.Optional(Type.String()),
    installed: Type.Boolean(),
    disabledByUser: Type.Boolean(),
    disabledByTeam: Type.Boolean(),
    integrations: PublicIntegrations,
  },
  { additionalProperties: false },
);

export type PublicIntegrations = Static<typeof PublicIntegrations>;
export type ClientApp = Static<typeof ClientApp>;

export const listDirectory = defineMethod({
  name: 'apps.listDirectory',
  callers: ['session'],
  rateClass: 'read',
  summary: 'The apps of the person’s team, by name, with the person’s own install of each.',
  result: Type.Object({ apps: Type.Array(ClientApp) }),
});

/** A switch on one app, answering the switch's new state. */
const appSwitch = { callers: ['session'], rateClass: 'channel', params: closedObject({ appId: AppIdParam }) } as const;

export const install = defineMethod({
  ...appSwitch,
  name: 'apps.install',
  summary: 'Install the app: app.install goes to its listener with a new user token, and only a 200 within 10 s installs it.',
  result: closedObject({ installed: Type.Literal(true) }),
  errors: ['UnknownApp', 'AppDisabled', 'InstallFailed', 'InstallInProgress'],
});

export const uninstall = defineMethod({
  ...appSwitch,
  name: 'apps.uninstall',
  summary: 'Uninstall the app: the person’s token for it is revoked at once, and app.uninstall is sent.',
  result: closedObject({ installed: Type.Literal(false) }),
  errors: ['UnknownApp', 'NotInstalled'],
});

export const disable = defineMethod({
  ...appSwitch,
  name: 'apps.disable',
  summary: 'The person’s own switch: their token for the app answers AppDisabled, its commands, previews and buttons stop.',
  result: closedObject({ disabledByUser: Type.Literal(true) }),
  errors: ['UnknownApp', 'NotInstalled'],
});

export const enable = defineMethod({
  ...appSwitch,
  name: 'apps.enable',
  summary: 'Turn the person’s own switch back on.',
  result: closedObject({ disabledByUser: Type.Literal(false) }),
  errors: ['UnknownApp', 'NotInstalled'],
});

export const disableForTeam = defineMethod({
  ...appSwitch,
  name: 'apps.disableForTeam',
  summary: 'A team admin’s switch for everyone in the team: every token of the app answers AppDisabled.',
  result: closedObject({ disabledByTeam: Type.Literal(true) }),
  errors: ['UnknownApp', 'PermissionDenied'],
});

export const enableForTeam = defineMethod({
  ...appSwitch,
  name: 'apps.enableForTeam',
  summary: 'Turn the team admin’s switch back on.',
  result: closedObject({ disabledByTeam: Type.Literal(false) }),
  errors: ['UnknownApp', 'PermissionDenied'],
});
