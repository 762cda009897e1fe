import type { JobDefinition } from '../jobs/plugin.ts';
import { bookOpenIntervals } from './book.ts';

/**
 * Every hour each lift's open availability interval is booked up to now, so a lift whose state
 * has not changed for days still fills its month rows (and a month closes with its time
 * booked). The result is the same whichever instance runs it, and however often.
 */
export const availabilityJob: JobDefinition = {
  name: 'availability',
  everyMs: 60 * 60_000,
  firstAfterMs: 5 * 60_000,
  run: async (app, signal) => ({ monthRows: await bookOpenIntervals(app.database.sql, signal) }),
};
