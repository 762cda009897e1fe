import { z } from 'zod';

/**
 * Every HTTP answer is `{ success, code, msg, result }`. `code` is a stable machine key
 * that the web client translates (`errors.<code>`); `msg` is readable English for logs
 * and API users; the HTTP status carries the class of failure as well.
 */
export interface ApiResponse<T = unknown> {
  success: boolean;
  code: string;
  msg: string;
  result: T;
}

export const apiResponseSchema = <T extends z.ZodType>(result: T) =>
  z.object({ success: z.boolean(), code: z.string(), msg: z.string(), result });

/** Stable error and success codes with their HTTP status and English text. */
export const API_CODES = {
  ok: { status: 200, msg: 'OK' },
  'validation.failed': { status: 400, msg: 'The request is not valid' },
  'request.malformed': { status: 400, msg: 'The request body is not valid JSON' },
  'request.tooLarge': { status: 413, msg: 'The request body is too large' },
  'auth.unauthorized': { status: 401, msg: 'Authorization verification failed' },
  'auth.badCredentials': { status: 401, msg: 'Invalid username or password' },
  'auth.badCaptcha': { status: 401, msg: 'Invalid verification code' },
  'auth.frozen': { status: 403, msg: 'This account is frozen' },
  'auth.pending': { status: 403, msg: 'This account has not been activated yet' },
  'auth.noPermissions': { status: 403, msg: 'roles must be a non-null array' },
  'auth.tooManyAttempts': { status: 429, msg: 'Too many failed attempts, try again later' },
  'auth.oldPasswordWrong': { status: 400, msg: 'The old password is wrong' },
  'auth.passwordTooShort': { status: 400, msg: 'password is shorter than 8, please re-enter' },
  'auth.passwordTooLong': { status: 400, msg: 'The password is longer than 128 characters' },
  'auth.passwordCommon': { status: 400, msg: 'The password is not strong enough.' },
  'auth.passwordMismatch': { status: 400, msg: 'passwords entered twice do not match' },
  'auth.tokenInvalid': { status: 400, msg: 'The link is invalid or has expired' },
  'auth.smsTooSoon': { status: 429, msg: 'A code was sent recently, wait before asking again' },
  'auth.notAllowed': { status: 403, msg: 'This sign-in method is not available' },
  'csrf.invalid': { status: 403, msg: 'The CSRF token is missing or wrong' },
  forbidden: { status: 403, msg: 'You do not have permission to do this' },
  notFound: { status: 404, msg: 'Not found' },
  conflict: { status: 409, msg: 'Conflict' },
  'user.exists': { status: 409, msg: 'A user with this username, email or mobile already exists' },
  'user.notFound': { status: 404, msg: 'User not found' },
  'user.self': { status: 409, msg: 'You cannot do this to your own account' },
  'user.hasOrganization': { status: 409, msg: 'The account already belongs to an organization' },
  'invite.notFound': { status: 404, msg: 'Invite code not found' },
  'role.notFound': { status: 404, msg: 'Role not found' },
  'role.exists': { status: 409, msg: 'A role with this name already exists' },
  'role.inUse': { status: 409, msg: 'The role is still held by users' },
  'role.builtIn': { status: 409, msg: 'A built-in role cannot be deleted' },
  'org.notFound': { status: 404, msg: 'Organization not found' },
  'org.exists': { status: 409, msg: 'An organization with this name already exists' },
  'org.inUse': { status: 409, msg: 'The organization still has users or lifts' },
  'org.notOperator': { status: 409, msg: 'Lifts can only be assigned to an operator organization' },
  'session.notFound': { status: 404, msg: 'Session not found' },
  'lift.notFound': { status: 404, msg: 'Lift not found' },
  'lift.noDeviceNo': { status: 409, msg: 'device has not been assigned a device number' },
  'lift.registered': { status: 409, msg: 'device has been registered, check and retry' },
  'lift.mismatch': { status: 409, msg: 'device does not match' },
  'lift.offline': { status: 503, msg: 'The lift is offline' },
  'lift.timeout': { status: 504, msg: 'The lift did not answer in time' },
  'lift.refused': { status: 409, msg: 'The lift refused the command' },
  'lift.sendFailed': { status: 503, msg: 'failed to send' },
  'lift.noLocation': { status: 400, msg: 'location information missing' },
  // Safe remote control (docs/remote-control.md); the data of each names the holder, the time to wait or the request.
  'lease.held': { status: 409, msg: 'Another user controls this lift' },
  'lease.lost': { status: 409, msg: 'You no longer control this lift' },
  'lease.localControl': { status: 409, msg: 'The lift is in use on site; remote control is paused' },
  'command.cancelTooLate': { status: 409, msg: 'The command was sent already and can no longer be cancelled' },
  'command.notFound': { status: 404, msg: 'Command not found' },
  'approval.required': { status: 409, msg: 'This command needs another user\'s approval' },
  'approval.notFound': { status: 404, msg: 'Approval request not found' },
  'approval.closed': { status: 409, msg: 'The approval request was decided, withdrawn or expired already' },
  'approval.ownRequest': { status: 403, msg: 'A second person must approve this request' },
  // Incidents and maintenance windows (docs/service.md).
  'incident.notFound': { status: 404, msg: 'Incident not found' },
  'incident.transition': { status: 409, msg: 'The incident cannot go to that state from its current one' },
  'incident.needsAssignee': { status: 409, msg: 'Assign a technician before this step' },
  'incident.assignee': { status: 409, msg: 'This user may not be assigned to incidents of this lift' },
  // Photos on incidents: JPEG, PNG or WebP by their bytes, at most MAX_INCIDENT_PHOTO_BYTES (the data names the limit).
  'incident.photoType': { status: 415, msg: 'Only JPEG, PNG or WebP photos can be added' },
  'incident.photoTooLarge': { status: 413, msg: 'The photo is too large' },
  'incident.photoLimit': { status: 409, msg: 'The incident has as many photos as it may have' },
  'incident.photoNotFound': { status: 404, msg: 'Photo not found' },
  'maintenance.notFound': { status: 404, msg: 'Maintenance window not found' },
  'maintenance.ended': { status: 409, msg: 'The maintenance window has ended already' },
  // Group configuration (docs/group-config.md).
  'groupConfig.tooMany': { status: 409, msg: 'The selection holds more lifts than one group send may reach' },
  'groupConfig.notFound': { status: 404, msg: 'Group send not found' },
  // Maintenance plans and visits (docs/service.md).
  'visit.notFound': { status: 404, msg: 'Maintenance visit not found' },
  'visit.incidentNotOnLift': { status: 409, msg: 'An incident named is not an open incident of this lift' },
  // Escalation (docs/service.md): the data names the users refused.
  'escalation.notCandidate': { status: 400, msg: 'Only active members of the organization who may work on incidents can be on its on-call list or be its manager' },
  // Webhooks (docs/webhooks.md).
  'webhook.notFound': { status: 404, msg: 'Webhook not found' },
  'webhook.badUrl': { status: 400, msg: 'The address must be https (http only for loopback addresses), without a user name or password' },
  // Firmware packages (docs/firmware.md); the lift's download answers 401, 410 and 416 as docs/protocol.md 11.5 reads them.
  'firmware.notFound': { status: 404, msg: 'Firmware package not found' },
  'firmware.exists': { status: 409, msg: 'The organization has a package of this version already' },
  'firmware.notManufacturer': { status: 409, msg: 'Firmware packages and signing keys belong to a manufacturer organization' },
  'firmware.uploaded': { status: 409, msg: 'The image of this package was uploaded already, or is being uploaded' },
  'firmware.notReady': { status: 409, msg: 'The package has no image yet' },
  'firmware.withdrawn': { status: 410, msg: 'The package has been withdrawn' },
  'firmware.tooLarge': { status: 413, msg: 'The image is larger than a firmware image may be' },
  'firmware.notForLift': { status: 409, msg: 'The package is not made for this lift (its kind or its maker)' },
  'firmware.tokenRefused': { status: 401, msg: 'The download token is not valid for this lift and package' },
  'firmware.range': { status: 416, msg: 'The range starts beyond the end of the image' },
  'firmware.keySecretMissing': { status: 503, msg: 'FIRMWARE_KEY_SECRET is not set: the server cannot keep signing keys' },
  'firmware.keySecretWrong': { status: 503, msg: 'The signing key cannot be read with this FIRMWARE_KEY_SECRET' },
  // Firmware campaigns (docs/firmware.md).
  'campaign.notFound': { status: 404, msg: 'Firmware campaign not found' },
  'campaign.noLifts': { status: 409, msg: 'No lift matches the selection' },
  'campaign.ownApproval': { status: 403, msg: 'A campaign must be approved by someone other than its author' },
  'campaign.state': { status: 409, msg: 'The campaign cannot do this in its present state' },
  'config.reconfigure': { status: 409, msg: 'The lift is already configured; confirm to reconfigure' },
  'config.versionConflict': { status: 409, msg: 'The configuration changed meanwhile; read it again' },
  'config.invalid': { status: 400, msg: 'modification failed' },
  'document.notFound': { status: 404, msg: 'Document not found' },
  // The logbook's PDF export needs a font with Latin, Cyrillic and CJK letters (docs/logbook.md).
  'logbook.pdfFont': { status: 503, msg: 'No font for the PDF export is installed on the server (fonts-wqy-microhei)' },
  // Scheduled reports (docs/reports.md).
  'report.notFound': { status: 404, msg: 'Report not found' },
  'service.unavailable': { status: 503, msg: 'The service is unavailable' },
  'backup.external': { status: 409, msg: 'This server uses PostgreSQL: back it up with pg_dump (docs/operations.md)' },
  'rateLimited': { status: 429, msg: 'Too many requests' },
  internal: { status: 500, msg: 'Internal server error' },
} as const satisfies Record<string, { status: number; msg: string }>;

export type ApiCode = keyof typeof API_CODES;

/** One field error of a `validation.failed` answer: `message` is an i18n key. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** Every code an error answer may carry. */
export const API_ERROR_CODES = (Object.keys(API_CODES) as ApiCode[]).filter((c) => c !== 'ok');

/**
 * A route's success answer: `{ success: true, code: 'ok', msg, result }`. Used as the
 * route's response schema, so the server checks what it sends against it and the
 * OpenAPI document shows it.
 */
export const envelopeOf = <T extends z.ZodType>(result: T) =>
  z.strictObject({ success: z.literal(true), code: z.literal('ok'), msg: z.string(), result });

/** Any error answer: `result` carries the details of the code (field issues, a retry delay, a command's state). */
export const errorEnvelopeSchema = z
  .strictObject({
    success: z.literal(false),
    code: z.enum(API_ERROR_CODES as [ApiCode, ...ApiCode[]]),
    msg: z.string(),
    result: z.unknown(),
  })
  .meta({ description: 'An error: `code` names it (see API_CODES), `msg` is English text, `result` holds its details or null.' });

/** The response schemas of a JSON route: its success envelope, and the error envelope for 4xx and 5xx. */
export const responsesOf = <T extends z.ZodType>(result: T) => ({ 200: envelopeOf(result), '4xx': errorEnvelopeSchema, '5xx': errorEnvelopeSchema });

/**
 * The response schemas of a route that answers with a file or a text document instead
 * of JSON (errors still come as the JSON envelope).
 */
export const fileResponsesOf = (contentType: string, description: string) => ({
  200: { description, content: { [contentType]: { schema: z.string().meta({ format: 'binary' }) } } },
  '4xx': errorEnvelopeSchema,
  '5xx': errorEnvelopeSchema,
});

/**
 * The response schemas of a route a browser navigates to and that answers with a redirect
 * (sign-in with another provider); errors still come as the JSON envelope.
 */
export const redirectResponsesOf = (description: string) => ({
  302: { description, content: { 'text/plain': { schema: z.string().meta({ description: 'empty; the Location header names the next address' }) } } },
  '4xx': errorEnvelopeSchema,
  '5xx': errorEnvelopeSchema,
});

/**
 * A point in time in an answer: an ISO 8601 string on the wire. The server may hand a
 * database timestamp (a Date) straight to the answer; JSON turns it into the same string.
 */
export const dateTimeSchema = z
  .custom<string>((v) => typeof v === 'string' || v instanceof Date, 'validation.invalid')
  .meta({ type: 'string', format: 'date-time' });

/** The null result of a route that answers only with its success. */
export const emptyResultSchema = z.null();

/** A result that is one list: `{ list: [...] }`. */
export const listOf = <T extends z.ZodType>(item: T) => z.strictObject({ list: z.array(item) });

/** A page of a longer list: `{ list: [...], total }` (total counts every match, not just this page). */
export const pageOf = <T extends z.ZodType>(item: T) => z.strictObject({ list: z.array(item), total: z.number() });
