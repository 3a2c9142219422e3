import filesDelete from './delete.js';
import filesGetInfo from './getInfo.js';
import filesList from './list.js';
import filesUpload from './upload.js';

/** The handlers of files.*, spread into the method table (../index.ts); files.upload's POST has its own route. */
export const fileHandlers = {
  'files.upload': filesUpload,
  'files.getInfo': filesGetInfo,
  'files.delete': filesDelete,
  'files.list': filesList,
};
