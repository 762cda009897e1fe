import { z } from 'zod';

/** `GET /health`: each dependency (database, broker) `up` or `down`; the answer is 503 when any is down. */
export const healthResultSchema = z.record(z.string(), z.enum(['up', 'down']));
export const healthEnvelopeSchema = z.strictObject({
  success: z.boolean(),
  code: z.enum(['ok', 'service.unavailable']),
  msg: z.string(),
  result: healthResultSchema,
});
