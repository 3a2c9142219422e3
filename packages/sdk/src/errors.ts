/** Defined with the protocol, so that the route clients (which the web client imports directly) throw the same class. */
export { AviaryApiError } from '@aviary/protocol';
