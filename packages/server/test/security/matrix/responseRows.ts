import { denied, everyone, post, type Row } from './rows.js';

/**
 * Deferred replies (POST /api/respond/:token): the token in the path is the only credential, so whatever
 * an actor presents besides changes nothing, and a token no event gave is unknown to everyone.
 * test/apps/responseUrls.test.ts covers real tokens: used up, expired, the rights of the moment.
 */
export const responseRows: Row[] = [
  {
    route: 'POST /api/respond/:token',
    credential: 'session',
    request: () => post(`/api/respond/as_r_${'Z'.repeat(43)}`, { text: 'a reply' }),
    expect: everyone(denied('UnknownResponseUrl', { parameter: 'token' })),
  },
];
