import createApp from './createApp.js';
import deleteApp from './deleteApp.js';
import enableBot from './enableBot.js';
import getApp from './getApp.js';
import listApps from './listApps.js';
import listEventAttempts from './listEventAttempts.js';
import listEvents from './listEvents.js';
import pauseDelivery from './pauseDelivery.js';
import regenerateBotToken from './regenerateBotToken.js';
import replayEvent from './replayEvent.js';
import replayFailedEvents from './replayFailedEvents.js';
import resumeDelivery from './resumeDelivery.js';
import rotateSecret from './rotateSecret.js';
import sendTestEvent from './sendTestEvent.js';
import setIntegrations from './setIntegrations.js';
import updateApp from './updateApp.js';

/** The developer API's handlers, under their routes' names (the table is checked in api/routeHandlers.ts). */
export const developerHandlers = {
  'developer.createApp': createApp,
  'developer.listApps': listApps,
  'developer.getApp': getApp,
  'developer.updateApp': updateApp,
  'developer.deleteApp': deleteApp,
  'developer.setIntegrations': setIntegrations,
  'developer.rotateSecret': rotateSecret,
  'developer.enableBot': enableBot,
  'developer.regenerateBotToken': regenerateBotToken,
  'developer.listEvents': listEvents,
  'developer.listEventAttempts': listEventAttempts,
  'developer.replayEvent': replayEvent,
  'developer.replayFailedEvents': replayFailedEvents,
  'developer.pauseDelivery': pauseDelivery,
  'developer.resumeDelivery': resumeDelivery,
  'developer.sendTestEvent': sendTestEvent,
} as const;
