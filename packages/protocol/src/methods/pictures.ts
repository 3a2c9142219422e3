/**
 * Profile pictures and the team's icon (issue 25): made from a file the person uploaded (files.upload),
 * resized to squares on the server, served at /pictures/<id> to the team (docs/reference/pictures.md).
 */
import { defineMethod } from '../define.js';
import { FileId } from '../files.js';
import { User } from '../models.js';
import { closedObject } from '../params.js';
import { Team } from './team.js';

/** The largest upload a picture is made from, in bytes (10 MiB): a photo from any phone is smaller. */
export const maxPictureBytes = 10 * 1024 * 1024;

/** The sides of the squares made of each picture, in pixels; /pictures/<id>?size=<side> picks one, the largest by default. */
export const pictureSides = [64, 256, 512] as const;

const pictureErrors = ['UnknownFile', 'UnsupportedFile', 'FileTooLarge'] as const;
const fromFile = closedObject({ file: FileId });

export const setProfileImage = defineMethod({
  name: 'users.setProfileImage',
  summary:
    'The person’s picture, from an image they uploaded (files.upload): a PNG, JPEG, GIF, WebP or AVIF of at most 10 MiB, resized to ' +
    'squares (EXIF orientation applied, metadata dropped) and shown to the team as `profileImage`. The upload itself is then removed.',
  callers: ['session'],
  rateClass: 'channel',
  params: fromFile,
  result: closedObject({ user: User }),
  errors: [...pictureErrors],
});

export const removeProfileImage = defineMethod({
  name: 'users.removeProfileImage',
  summary: 'The person’s picture goes: the team sees their initials again.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({}),
  result: closedObject({ user: User }),
});

export const setIcon = defineMethod({
  name: 'team.setIcon',
  summary: 'A team admin sets the team’s icon from an image they uploaded, as users.setProfileImage makes a picture.',
  callers: ['session'],
  rateClass: 'channel',
  params: fromFile,
  result: closedObject({ team: Team }),
  errors: ['PermissionDenied', ...pictureErrors],
});

export const removeIcon = defineMethod({
  name: 'team.removeIcon',
  summary: 'A team admin removes the team’s icon.',
  callers: ['session'],
  rateClass: 'channel',
  params: closedObject({}),
  result: closedObject({ team: Team }),
  errors: ['PermissionDenied'],
});
