import { z } from 'zod';
import { pageOf } from './envelope.ts';

/** One audited operation on a lift (`GET /auth/access/operation-log`). */
export const operationLogEntrySchema = z.strictObject({
  id: z.number(),
  ts: z.string(),
  username: z.string().nullable(),
  action: z.string(),
  liftId: z.string(),
  deviceNo: z.string().nullable(),
  result: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type OperationLogEntry = z.infer<typeof operationLogEntrySchema>;

export const operationLogPageSchema = pageOf(operationLogEntrySchema);
