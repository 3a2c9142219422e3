import { maxPasswordLength, minPasswordLength } from '@aviary/protocol';
import { invalidParameter } from '../errors.js';
import { commonPasswordList } from './commonPasswords.js';

const commonPasswords = new Set(commonPasswordList.split('\n').filter((line) => line !== ''));

/**
 * The one password rule, for a new person and a changed password alike: by length only (at least
 * minPasswordLength characters, at most maxPasswordLength), and not one of the commonest leaked passwords
 * (commonPasswords.ts, compared without case). `field` is the parameter named in the error; its words
 * say "the password", as the person reads them beside the field they typed it in.
 */
export function checkPassword(field: string, value: unknown): string {
  if (typeof value !== 'string' || value.length < minPasswordLength) {
    throw invalidParameter(field, `The password must be at least ${minPasswordLength} characters long.`);
  }
  if (value.length > maxPasswordLength) throw invalidParameter(field, `The password must be at most ${maxPasswordLength} characters long.`);
  if (commonPasswords.has(value.normalize('NFC').toLowerCase())) {
    throw invalidParameter(field, 'This password is one of the most common leaked passwords; choose a longer one that is yours alone, such as a few unrelated words.');
  }
  return value;
}
