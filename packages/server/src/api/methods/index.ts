import type { MethodHandler } from '../handler.js';
import usersGetInfo from './users/getInfo.js';

/** Every method's handler; a test checks that each method of @aviary/protocol has exactly one. */
export const handlers: MethodHandler[] = [usersGetInfo] as MethodHandler[];
