import filesDelete from './delete.js';
import filesFinishUpload from './finishUpload.js';
import filesGetInfo from './getInfo.js';
import filesGetUpload from './getUpload.js';
import filesList from './list.js';
import filesStartUpload from './startUpload.js';
import filesUpload from './upload.js';
import filesUploadPart from './uploadPart.js';

/** The handlers of files.*, spread into the method table (../index.ts); the POSTs of files.upload and files.uploadPart have their own routes. */
export const fileHandlers = {
  'files.upload': filesUpload,
  'files.getInfo': filesGetInfo,
  'files.delete': filesDelete,
  'files.list': filesList,
  'files.startUpload': filesStartUpload,
  'files.getUpload': filesGetUpload,
  'files.uploadPart': filesUploadPart,
  'files.finishUpload': filesFinishUpload,
};
