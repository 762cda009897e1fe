/** What other modules use of the logbook: the append (inside their transaction) and the feeds of today's modules. */
export {
  appendLogbook,
  appendLogbookNow,
  appendToLockedHeads,
  headOrder,
  lockHeadsQuery,
  lockLogbookHead,
  lockLogbookHeads,
  withMissingHeads,
  type LockedHeadRow,
  type LogbookActor,
  type NewLogbookEntry,
} from './append.ts';
export {
  COMMAND_LOG_COLUMNS,
  commandFinalEntry,
  logCommandFinal,
  logLeaseChange,
  logLeasesEndedOnSite,
  type CommandLogRow,
} from './feeds.ts';
