import { z } from 'zod';

// The shared schemas parse in the browser under a Content-Security-Policy without
// 'unsafe-eval'. Zod 4 would otherwise probe `new Function` on the first object it parses:
// refused, and reported as a CSP violation on every page that validates anything. Jitless
// parsing is the same result without code generation.
z.config({ jitless: true });
