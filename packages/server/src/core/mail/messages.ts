import type { Mail } from './outbox.js';

/** The texts of the mail the server sends; every link is absolute, on the server's public URL. */

export const invitationMail = (to: string, input: { teamName: string; inviter: string; link: string; expiresAt: number }): Mail => ({
  to,
  subject: `${input.inviter} invited you to ${input.teamName} on Aviary`,
  text: [
    `${input.inviter} invited you to join the team ${input.teamName} on Aviary.`,
    '',
    `Sign up here: ${input.link}`,
    '',
    `The link works until ${new Date(input.expiresAt).toUTCString()}.`,
  ].join('\n'),
});

export const passwordResetMail = (to: string, input: { teamName: string; link: string }): Mail => ({
  to,
  subject: `Set a new Aviary password for ${input.teamName}`,
  text: [
    `Someone asked to set a new password for your account in ${input.teamName} on Aviary.`,
    '',
    `Set a new password here (the link works once, for one hour): ${input.link}`,
    '',
    'If it was not you, ignore this mail: your password stays as it is.',
  ].join('\n'),
});

export const verificationMail = (to: string, input: { teamName: string; link: string }): Mail => ({
  to,
  subject: `Verify your email for ${input.teamName} on Aviary`,
  text: [`Welcome to ${input.teamName} on Aviary.`, '', `Verify your email address here: ${input.link}`].join('\n'),
});
