/** Public entry of auth: other features import only what this file exports (decision 019-l). */
export { authKeys, sessionQuery, useIsAdmin, useLogin, useLogout } from './session.ts';
