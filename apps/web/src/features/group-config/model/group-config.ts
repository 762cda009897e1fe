import {
  CONFIG_FIELDS,
  REFUSAL_REASONS,
  deviceNoSchema,
  isFinalGroupConfigState,
  refusalText,
  type ConfigValue,
  type DeviceKind,
  type GroupConfigChanges,
  type GroupConfigLiftState,
  type GroupConfigPreviewLift,
  type GroupConfigReason,
  type GroupConfigSelection,
  type GroupConfigSend,
  type LiveGroupConfigMessage,
} from '@liftlink/protocol';
import { tx } from '../../../lib/i18n/i18n.ts';

/** The selection form: selects and the pasted device numbers as typed. */
export interface SelectionValues {
  kinds?: DeviceKind[];
  firmware?: string[];
  orgIds?: string[];
  sites?: string[];
  deviceNos?: string;
}

/** Pasted device numbers: one per line, or separated by commas, semicolons or spaces; upper case, each once. */
export function parseDeviceNos(text: string | undefined): string[] {
  const parts = (text ?? '')
    .split(/[\s,;]+/)
    .map((p) => p.trim().toUpperCase())
    .filter(Boolean);
  return [...new Set(parts)];
}

/** The pasted values that are no device number. */
export function invalidDeviceNos(text: string | undefined): string[] {
  return parseDeviceNos(text).filter((no) => !deviceNoSchema.safeParse(no).success);
}

/** The form's values as the protocol's selection: empty criteria left out. */
export function selectionOf(values: SelectionValues): GroupConfigSelection {
  const selection: GroupConfigSelection = {};
  if (values.kinds?.length) selection.kinds = values.kinds;
  if (values.firmware?.length) selection.firmware = values.firmware;
  if (values.orgIds?.length) selection.orgIds = values.orgIds;
  if (values.sites?.length) selection.sites = values.sites;
  const deviceNos = parseDeviceNos(values.deviceNos);
  if (deviceNos.length) selection.deviceNos = deviceNos;
  return selection;
}

/** The chosen fields' values as the protocol's changes: a field left empty is not changed. */
export function changesOf(
  fields: string[],
  values: Record<string, ConfigValue | null | undefined>,
): GroupConfigChanges {
  const changes: GroupConfigChanges = {};
  for (const key of fields) {
    const value = values[key];
    if (value !== null && value !== undefined) changes[key] = value;
  }
  return changes;
}

/** A field's starting value in the change form: its default (a switch needs a boolean). */
export function initialValue(key: string): ConfigValue | undefined {
  const field = CONFIG_FIELDS.find((f) => f.key === key);
  return field?.type === 'boolean' || field?.type === 'enum' ? field.default : undefined;
}

/** What the send will do with a reviewed lift, decided as the server decides it. */
export type ReviewOutcome = 'send' | 'offline' | 'invalid' | 'forbidden' | 'unchanged';

export function reviewOutcome(lift: GroupConfigPreviewLift): ReviewOutcome {
  if (!lift.online) return 'offline';
  if (lift.issues.length) return 'invalid';
  if (lift.forbidden.length) return 'forbidden';
  if (!lift.changed.length) return 'unchanged';
  return 'send';
}

export function reviewCounts(lifts: GroupConfigPreviewLift[]): { send: number; other: number } {
  const send = lifts.filter((l) => reviewOutcome(l) === 'send').length;
  return { send, other: lifts.length - send };
}

/** The per-lift versions the review saw: the send carries them back. */
export function reviewedVersions(lifts: GroupConfigPreviewLift[]): Record<string, number> {
  return Object.fromEntries(lifts.map((l) => [l.liftId, l.version]));
}

/** Why a lift was refused or skipped, in the current language. */
export function reasonText(reason: GroupConfigReason | null, language: string): string | null {
  if (!reason) return null;
  if (Object.hasOwn(REFUSAL_REASONS, reason)) return refusalText(reason, language);
  return tx(`groupConfig.reason.${reason}`);
}

/** A live answer applied to the send on screen; a lift's final state never goes back. */
export function applyLive(send: GroupConfigSend, message: LiveGroupConfigMessage): GroupConfigSend {
  if (message.groupId !== send.id) return send;
  const lift = send.lifts.find((l) => l.liftId === message.liftId);
  if (!lift || lift.state === message.state || isFinalGroupConfigState(lift.state)) return send;
  const counts = { ...send.counts, [lift.state]: send.counts[lift.state] - 1 };
  counts[message.state] += 1;
  return {
    ...send,
    counts,
    lifts: send.lifts.map((l) =>
      l.liftId === message.liftId
        ? {
            ...l,
            state: message.state,
            reason: message.reason,
            answeredAt: isFinalGroupConfigState(message.state) ? new Date().toISOString() : null,
          }
        : l,
    ),
  };
}

/** Whether every lift of the send has its outcome. */
export function sendFinished(send: GroupConfigSend): boolean {
  return send.lifts.every((l) => isFinalGroupConfigState(l.state));
}

export const STATE_COLORS: Record<GroupConfigLiftState, string> = {
  pending: 'default',
  sent: 'processing',
  done: 'success',
  refused: 'error',
  offline: 'warning',
  skipped: 'default',
};
