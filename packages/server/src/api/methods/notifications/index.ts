import getSettings from './getSettings.js';
import listMentions from './listMentions.js';
import pushGetPublicKey from './pushGetPublicKey.js';
import pushSubscribe from './pushSubscribe.js';
import pushUnsubscribe from './pushUnsubscribe.js';
import setChatLevel from './setChatLevel.js';
import setDoNotDisturb from './setDoNotDisturb.js';
import updateMentionSettings from './updateMentionSettings.js';

/** The handlers of mentions, notification settings and Web Push, spread into the method table (../index.ts). */
export const notificationHandlers = {
  'chat.listMentions': listMentions,
  'notifications.getSettings': getSettings,
  'notifications.setChatLevel': setChatLevel,
  'notifications.setDoNotDisturb': setDoNotDisturb,
  'push.getPublicKey': pushGetPublicKey,
  'push.subscribe': pushSubscribe,
  'push.unsubscribe': pushUnsubscribe,
  'team.updateMentionSettings': updateMentionSettings,
};
