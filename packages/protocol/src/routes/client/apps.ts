/**
 * The apps of the person's team and the person's own install of each. Installing never shows the person
 * the app's token for them: only the app receives it, in app.install.
 */
import { Type } from '@sinclair/typebox';
import { ClientApp } from '../clientModels.js';
import { defineRoute } from '../define.js';
import { AppInPath, closedObject, sessionRead } from '../fields.js';

export const listApps = defineRoute({
  ...sessionRead,
  name: 'client.listApps',
  summary: 'The apps of the person’s team, by name, with the person’s own install of each.',
  path: '/api/client/apps',
  result: Type.Object({ apps: Type.Array(ClientApp) }),
});

/** A switch on one app: a POST that answers the switch's new state. */
const appSwitch = { verb: 'POST', callers: ['session'], params: AppInPath } as const;

export const installApp = defineRoute({
  ...appSwitch,
  name: 'client.installApp',
  summary: 'Install the app: app.install goes to its listener with a new user token, and only a 200 within 10 s installs it.',
  path: '/api/client/apps/:id/install',
  result: closedObject({ installed: Type.Literal(true) }),
  errors: ['UnknownApp', 'AppDisabled', 'InstallFailed'],
});

export const uninstallApp = defineRoute({
  ...appSwitch,
  name: 'client.uninstallApp',
  summary: 'Uninstall the app: the person’s token for it is revoked at once, and app.uninstall is sent.',
  path: '/api/client/apps/:id/uninstall',
  result: closedObject({ installed: Type.Literal(false) }),
  errors: ['UnknownApp', 'NotInstalled'],
});

export const disableApp = defineRoute({
  ...appSwitch,
  name: 'client.disableApp',
  summary: 'The person’s own switch: their token for the app answers AppDisabled, its commands, previews and buttons stop.',
  path: '/api/client/apps/:id/disable',
  result: closedObject({ disabledByUser: Type.Literal(true) }),
  errors: ['UnknownApp', 'NotInstalled'],
});

export const enableApp = defineRoute({
  ...appSwitch,
  name: 'client.enableApp',
  summary: 'Turn the person’s own switch back on.',
  path: '/api/client/apps/:id/enable',
  result: closedObject({ disabledByUser: Type.Literal(false) }),
  errors: ['UnknownApp', 'NotInstalled'],
});

export const teamDisableApp = defineRoute({
  ...appSwitch,
  name: 'client.teamDisableApp',
  summary: 'A team admin’s switch for everyone in the team: every token of the app answers AppDisabled.',
  path: '/api/client/apps/:id/team-disable',
  result: closedObject({ disabledByTeam: Type.Literal(true) }),
  errors: ['UnknownApp', 'PermissionDenied'],
});

export const teamEnableApp = defineRoute({
  ...appSwitch,
  name: 'client.teamEnableApp',
  summary: 'Turn the team admin’s switch back on.',
  path: '/api/client/apps/:id/team-enable',
  result: closedObject({ disabledByTeam: Type.Literal(false) }),
  errors: ['UnknownApp', 'PermissionDenied'],
});
