import { z } from 'zod';

// In the browser, zod must not probe for eval (new Function): the CSP forbids it, and the probe
// alone logs a violation. Import this before any schema is used on the client.
z.config({ jitless: true });
