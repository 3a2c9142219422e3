// The CommonJS side of the declarations (index.d.cts), through require under node16.
import sdk = require('@aviary/sdk');

export const listener = sdk.createEventListener({ appId: 'a:consumer', appSecret: 'secret' });
// @ts-expect-error a ChannelId is not a UserId under require either
export const wrong: sdk.UserId = sdk.toChannelId('g:aaaaaaaaaaaaaaaa');
