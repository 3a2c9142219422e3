import pinsAdd from './add.js';
import pinsList from './list.js';
import pinsRemove from './remove.js';
import savedAdd from '../saved/add.js';
import savedList from '../saved/list.js';
import savedRemove from '../saved/remove.js';

/** The handlers of pins.* and saved.*, spread into the method table (./index.ts). */
export const pinHandlers = {
  'pins.add': pinsAdd,
  'pins.list': pinsList,
  'pins.remove': pinsRemove,
  'saved.add': savedAdd,
  'saved.list': savedList,
  'saved.remove': savedRemove,
};
