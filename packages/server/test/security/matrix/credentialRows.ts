import { methodsByName, type MethodDefinition } from '@aviary/protocol';
import { credentialSuffix, denied, everyone, post, type Credential, type Outcome, type Row } from './rows.js';

/**
 * The rows of the credentials a method does not take, made from the protocol's list of methods: whatever
 * the actor, the call is refused before anything is looked up or done. A method only a person calls
 * answers NotSignedIn to an app token; a method that takes no app secret answers an app secret as it
 * answers any token it does not know (InvalidToken), or NotSignedIn when it takes no token at all.
 * The rows of the credentials a method does take are written by hand (v1Rows.ts, sessionRows.ts).
 */
function refusal(method: MethodDefinition, credential: Credential): Record<string, Outcome> | undefined {
  // A method anyone calls looks at no credential: its rows are written by hand (invitationRows.ts).
  if (method.callers.includes('anyone')) return undefined;
  const takesTokens = method.callers.includes('token');
  if (credential === 'token' && !takesTokens) return everyone(denied('NotSignedIn'));
  if (credential === 'appSecret' && !method.callers.includes('appSecret')) {
    return takesTokens ? { ...everyone(denied('InvalidToken')), none: denied('MissingParameter', { parameter: 'token' }) } : everyone(denied('NotSignedIn'));
  }
  return undefined;
}

export const refusedCredentialRows: Row[] = [...methodsByName.values()].flatMap((method) =>
  (['token', 'appSecret'] as const).flatMap((credential): Row[] => {
    const expect = refusal(method, credential);
    if (!expect) return [];
    return [{ route: `v1 ${method.name}${credentialSuffix[credential]}`, credential, request: () => post(`/v1/${method.name}`), expect: expect as Row['expect'] }];
  }),
);
