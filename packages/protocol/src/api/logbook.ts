import { z } from 'zod';
import { commandStateSchema } from '../device/commands.ts';
import { dateTimeSchema, pageOf } from './envelope.ts';

/**
 * The lift's logbook (docs/logbook.md): one ordered, append-only record per lift of what was
 * done to it, each entry hash-chained to the one before, so an altered, removed or reordered
 * entry is found by `verify`. Routes under `/auth/access/lift/logbook/`.
 */
const liftId = z.uuid('validation.id');

/**
 * What an entry records. `incident` and `firmware` are reserved for the incident register and
 * firmware updates: their data is free-form until those modules define it here; `visit` is a
 * maintenance visit.
 */
export const LOGBOOK_KINDS = [
  'command',
  'config',
  'credential',
  'lease',
  'approval',
  'incident',
  'visit',
  'firmware',
] as const;
export type LogbookKind = (typeof LOGBOOK_KINDS)[number];
export const logbookKindSchema = z.enum(LOGBOOK_KINDS);

/**
 * A command that reached a final state (done, refused by the lift or the cloud, failed, timed
 * out, expired, cancelled), with whom it ran for and under which lease and approval. A click
 * refused before a command existed (the lift offline, approval needed) never reached the lift
 * and is only in the audit log.
 */
export const logbookCommandDataSchema = z.strictObject({
  commandId: z.string(),
  type: z.enum(['cmd', 'config/set']),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  state: commandStateSchema,
  reason: z.string().nullable(),
  leaseEpoch: z.number().int().nullable(),
  approval: z
    .strictObject({ id: z.string(), requester: z.string(), approver: z.string().nullable() })
    .nullable(),
});

/** A new configuration version the lift reported: from the cloud (a configuration command) or set on the lift itself. */
export const logbookConfigDataSchema = z.strictObject({
  source: z.enum(['cloud', 'device']),
  commandId: z.string().nullable(),
  versionBefore: z.number().int(),
  versionAfter: z.number().int(),
});

/** The lift's broker credential issued (a new secret; the old one stops working) or revoked. */
export const logbookCredentialDataSchema = z.strictObject({
  action: z.enum(['issued', 'revoked']),
  deviceNo: z.string(),
});

/** The remote-control lease (docs/remote-control.md): taken, taken over from another holder, released, or ended by use on site. */
export const logbookLeaseDataSchema = z.strictObject({
  action: z.enum(['taken', 'takenOver', 'released', 'endedByLocalUse']),
  epoch: z.number().int(),
  /** takenOver: whose lease it was; endedByLocalUse: whose lease ended. */
  previousHolderId: z.string().nullable(),
  previousHolderName: z.string().nullable(),
});

/** Two-person approval: a request (with the requester's reason) and its decision. */
export const logbookApprovalDataSchema = z.strictObject({
  action: z.enum(['requested', 'approved', 'rejected', 'withdrawn']),
  approvalId: z.string(),
  command: z.string(),
  args: z.record(z.string(), z.unknown()),
  /** requested: why (shown to the approver). */
  reason: z.string().nullable(),
});

/**
 * A maintenance visit (docs/service.md): who did it is the entry's actor; the checklist's
 * summary (items checked, the ids of the failed ones), the findings, the parts used and the
 * incidents of the lift it resolved and closed.
 */
export const logbookVisitDataSchema = z.strictObject({
  visitId: z.number().int(),
  startedAt: z.string(),
  endedAt: z.string(),
  checked: z.number().int(),
  failed: z.number().int(),
  failedItems: z.array(z.string()),
  findings: z.string(),
  partsUsed: z.array(z.string()),
  incidentIds: z.array(z.number().int()),
});

/**
 * A firmware update that ended on the lift (docs/firmware.md): installed (`done`), or failed
 * or rolled back with the lift's reason, and the version it runs after. Written once, when
 * the lift's first final report for the offer arrives; the campaign and who approved it, if
 * a campaign made the offer.
 */
export const logbookFirmwareDataSchema = z.strictObject({
  offerSeq: z.number().int(),
  version: z.string().nullable(),
  state: z.enum(['done', 'failed', 'rolledBack']),
  reason: z.string().nullable(),
  runningVersion: z.string(),
  campaignId: z.string().nullable(),
  campaignName: z.string().nullable(),
  approvedBy: z.string().nullable(),
});

/** Reserved kinds: any JSON object until their module gives it a shape. */
const reservedDataSchema = z.record(z.string(), z.unknown());

/** The data each kind of entry carries; `appendLogbook` refuses data of another shape. */
export const LOGBOOK_DATA_SCHEMAS = {
  command: logbookCommandDataSchema,
  config: logbookConfigDataSchema,
  credential: logbookCredentialDataSchema,
  lease: logbookLeaseDataSchema,
  approval: logbookApprovalDataSchema,
  incident: reservedDataSchema,
  visit: logbookVisitDataSchema,
  firmware: logbookFirmwareDataSchema,
} as const satisfies Record<LogbookKind, z.ZodType>;
export type LogbookData<K extends LogbookKind> = z.infer<(typeof LOGBOOK_DATA_SCHEMAS)[K]>;

/** One entry as the API shows it. `actorId`/`actorName` are null for what the lift or the server did by itself. */
export const logbookEntrySchema = z.strictObject({
  seq: z.number().int(),
  ts: dateTimeSchema,
  kind: logbookKindSchema,
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  prevHash: z.string(),
  hash: z.string(),
});
export type LogbookEntry = z.infer<typeof logbookEntrySchema>;

/** The filter of a page and of the export: some kinds, a time range (`from` inclusive, `to` exclusive). */
const logbookFilter = {
  liftId,
  kinds: z.array(logbookKindSchema).min(1).max(LOGBOOK_KINDS.length).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
};

/** `POST /auth/access/lift/logbook/page`: newest first. */
export const logbookPageRequestSchema = z.strictObject({
  ...logbookFilter,
  page: z.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.number().int().min(1).max(200).default(20),
});
export type LogbookPageRequest = z.infer<typeof logbookPageRequestSchema>;
export const logbookPageSchema = pageOf(logbookEntrySchema);

/** The export's formats: CSV (every field the hash covers) or PDF (to read, print and file). */
export const LOGBOOK_EXPORT_FORMATS = ['csv', 'pdf'] as const;
export type LogbookExportFormat = (typeof LOGBOOK_EXPORT_FORMATS)[number];

/** An IANA time zone name the server knows (Europe/Moscow, Asia/Shanghai, UTC). */
const timeZoneSchema = z
  .string()
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'validation.invalid');

/**
 * `POST /auth/access/lift/logbook/export`: the matching entries, oldest first (the chain's
 * order), as CSV (the default) or PDF. The PDF is in the caller's language, its times in
 * `timeZone` (the browser's) or else UTC; it names the lift, the range, the time of export
 * and the chain's verification, and each entry in words with its hash shortened.
 */
export const logbookExportRequestSchema = z.strictObject({
  ...logbookFilter,
  format: z.enum(LOGBOOK_EXPORT_FORMATS, 'validation.invalid').optional(),
  timeZone: timeZoneSchema.optional(),
});
export type LogbookExportRequest = z.infer<typeof logbookExportRequestSchema>;
/** The CSV's columns: every field the hash covers, so an auditor can recompute the chain from the file. */
export const LOGBOOK_CSV_COLUMNS = [
  'seq',
  'ts',
  'kind',
  'actorId',
  'actorName',
  'data',
  'prevHash',
  'hash',
] as const;

/** `POST /auth/access/lift/logbook/verify`. */
export const logbookVerifyRequestSchema = z.strictObject({ liftId });

/**
 * Why a chain is broken, at the first entry that is wrong:
 * - `altered`: the entry's hash is not the hash of its fields (its data, time, kind, actor or seq changed);
 * - `unlinked`: its `prevHash` is not the previous entry's hash (an entry before it was rewritten, or entries swapped);
 * - `missing`: an entry of this seq is gone (a gap, or the newest entries removed: the head counts more).
 */
export const LOGBOOK_PROBLEMS = ['altered', 'unlinked', 'missing'] as const;
export type LogbookProblem = (typeof LOGBOOK_PROBLEMS)[number];

export const logbookVerifyResultSchema = z.strictObject({
  ok: z.boolean(),
  /** Entries checked (those before the first broken one, when broken). */
  checked: z.number().int(),
  /** What the lift's head says: the last seq and hash written. Noting them anchors the chain as it is now. */
  headSeq: z.number().int(),
  headHash: z.string().nullable(),
  broken: z.strictObject({ seq: z.number().int(), problem: z.enum(LOGBOOK_PROBLEMS) }).nullable(),
});
export type LogbookVerifyResult = z.infer<typeof logbookVerifyResultSchema>;
