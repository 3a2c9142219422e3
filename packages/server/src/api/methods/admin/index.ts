import deactivatePerson from './deactivatePerson.js';
import listApps from './listApps.js';
import listChannels from './listChannels.js';
import listPeople from './listPeople.js';
import reactivatePerson from './reactivatePerson.js';
import resetPassword from './resetPassword.js';
import setRole from './setRole.js';
import { channelsArchive, channelsConvertToPrivate, channelsRename, channelsUnarchive } from './channels.js';

/** The handlers of the admin console's methods (admin.* and the channel changes), spread into the method table (../index.ts). */
export const adminHandlers = {
  'admin.deactivatePerson': deactivatePerson,
  'admin.listApps': listApps,
  'admin.listChannels': listChannels,
  'admin.listPeople': listPeople,
  'admin.reactivatePerson': reactivatePerson,
  'admin.resetPassword': resetPassword,
  'admin.setRole': setRole,
  'channels.archive': channelsArchive,
  'channels.convertToPrivate': channelsConvertToPrivate,
  'channels.rename': channelsRename,
  'channels.unarchive': channelsUnarchive,
};
