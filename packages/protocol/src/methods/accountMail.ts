import { Type } from '@sinclair/typebox';
import { defineMethod } from '../define.js';
import { maxPasswordLength, minPasswordLength } from '../personFields.js';
import { closedObject } from '../params.js';

const linkToken = Type.String({ minLength: 1, maxLength: 128, description: 'the token of the link that was mailed (the part after #)' });

export const requestPasswordReset = defineMethod({
  name: 'users.requestPasswordReset',
  summary:
    'Mails a single-use link valid for an hour that sets a new password, to each account with this email. Answers the same, in about the same time, ' +
    'whether such an account exists or not. Needs SMTP on the server: without it a team admin resets passwords.',
  callers: ['anyone'],
  rateClass: 'channel',
  params: closedObject({ email: Type.String({ maxLength: 254, description: 'the address the account signs in with' }) }),
  result: closedObject({}),
  errors: ['MailNotConfigured'],
});

export const resetPassword = defineMethod({
  name: 'users.resetPassword',
  summary: 'Sets a new password with a mailed reset link’s token (once); every session of the person ends at once, and their streams close.',
  callers: ['anyone'],
  rateClass: 'channel',
  params: closedObject({
    linkToken,
    newPassword: Type.String({ maxLength: maxPasswordLength, description: `at least ${minPasswordLength} characters, and not one of the commonest leaked passwords` }),
  }),
  result: closedObject({
    email: Type.String({ description: 'the address to sign in with' }),
    teamId: Type.String({ description: 'the account’s team, for signing in when the email has accounts in several' }),
  }),
  errors: ['AccountLinkUnusable'],
});

export const verifyEmail = defineMethod({
  name: 'users.verifyEmail',
  summary: 'Marks the person’s email as verified with a mailed verification link’s token.',
  callers: ['anyone'],
  rateClass: 'channel',
  params: closedObject({ linkToken }),
  result: closedObject({ email: Type.String() }),
  errors: ['AccountLinkUnusable'],
});
