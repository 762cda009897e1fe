import { z } from 'zod';
import { LIVE_SUBSCRIBE_MAX, type LiveClientMessage, type LiveErrorCode } from './live-messages.ts';

/** What a browser sends on the live WebSocket, checked at the boundary (types in live-messages.ts). */

const liftIdsSchema = z.array(z.uuid()).min(1).max(LIVE_SUBSCRIBE_MAX);

/** Messages a browser may send; anything else is answered with an error and changes nothing. */
export const liveClientMessageSchema: z.ZodType<LiveClientMessage> = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('auth'), token: z.string().min(1).max(200) }),
  z.strictObject({
    type: z.literal('subscribe'),
    liftIds: liftIdsSchema,
    since: z.record(z.uuid(), z.number().int().min(0)).optional(),
  }),
  z.strictObject({ type: z.literal('unsubscribe'), liftIds: liftIdsSchema }),
  z.strictObject({ type: z.literal('subscribeFleet') }),
  z.strictObject({ type: z.literal('ping') }),
]);

/** Reads one client message: the message, or the error code to answer with. */
export function parseLiveClientMessage(text: string): { message: LiveClientMessage } | { error: LiveErrorCode } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { error: 'request.malformed' };
  }
  const parsed = liveClientMessageSchema.safeParse(data);
  return parsed.success ? { message: parsed.data } : { error: 'validation.failed' };
}
