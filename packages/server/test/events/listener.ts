// The listener harness lives in ../helpers/listener.ts; this path stays for the security tests that import it.
export { answerOk, closedPortUrl, fakeClock, startListener, type Answer, type Received, type Responder, type TestListener } from '../helpers/listener.js';
