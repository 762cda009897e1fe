import {
  INCIDENT_STATES,
  LOGBOOK_DATA_SCHEMAS,
  firmwareReasonText,
  refusalText,
  type LogbookEntry,
} from '@liftlink/protocol';
import { tx } from '../../../lib/i18n/i18n.ts';
import { commandLabel } from './command-label.ts';

const incidentState = (state: unknown): string =>
  (INCIDENT_STATES as readonly unknown[]).includes(state)
    ? tx(`logbook.incidentState.${String(state)}`)
    : String(state);

/** An object as one line "key: value, …", for kinds whose data has no shape of its own yet. */
function plainLine(data: Record<string, unknown>): string {
  return Object.entries(data)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

/**
 * One line that says what an entry records, in the user's language, from its data: the
 * command and its outcome (with the reason of a refusal), the configuration versions, the credential, lease or approval
 * step, the incident's state change. Data of another shape (an older server, a kind still
 * free-form) reads as its plain fields.
 */
export function logbookSummary(
  entry: Pick<LogbookEntry, 'kind' | 'data'>,
  language: string,
): string {
  switch (entry.kind) {
    case 'command': {
      const parsed = LOGBOOK_DATA_SCHEMAS.command.safeParse(entry.data);
      if (!parsed.success) break;
      const d = parsed.data;
      const command =
        d.type === 'config/set' ? tx('command.configSet') : commandLabel(d.name, d.args);
      const outcome = tx(`command.state.${d.state}`);
      const line = d.reason
        ? tx('logbook.commandWhy', { command, outcome, reason: refusalText(d.reason, language) })
        : tx('logbook.command', { command, outcome });
      return d.approval?.approver
        ? `${line} · ${tx('logbook.command.approvedBy', { name: d.approval.approver })}`
        : line;
    }
    case 'config': {
      const parsed = LOGBOOK_DATA_SCHEMAS.config.safeParse(entry.data);
      if (!parsed.success) break;
      const d = parsed.data;
      return tx(`logbook.config.${d.source}`, { before: d.versionBefore, after: d.versionAfter });
    }
    case 'credential': {
      const parsed = LOGBOOK_DATA_SCHEMAS.credential.safeParse(entry.data);
      if (!parsed.success) break;
      return tx(`logbook.credential.${parsed.data.action}`, { deviceNo: parsed.data.deviceNo });
    }
    case 'lease': {
      const parsed = LOGBOOK_DATA_SCHEMAS.lease.safeParse(entry.data);
      if (!parsed.success) break;
      const d = parsed.data;
      return tx(`logbook.lease.${d.action}`, {
        previous: d.previousHolderName ?? tx('logbook.someone'),
      });
    }
    case 'approval': {
      const parsed = LOGBOOK_DATA_SCHEMAS.approval.safeParse(entry.data);
      if (!parsed.success) break;
      const d = parsed.data;
      const command = commandLabel(d.command, d.args);
      return d.action === 'requested' && d.reason
        ? tx('logbook.approval.requestedWhy', { command, reason: d.reason })
        : tx(`logbook.approval.${d.action}`, { command });
    }
    case 'incident': {
      const d = entry.data;
      const photo = d.photo as { sha256?: unknown } | undefined;
      if (typeof d.incidentId === 'number' && photo && typeof photo.sha256 === 'string')
        return tx('logbook.incident.photo', { id: d.incidentId, sha: photo.sha256.slice(0, 12) });
      if (typeof d.incidentId !== 'number' || typeof d.to !== 'string') break;
      return d.from === null || d.from === undefined
        ? tx('logbook.incident.opened', { id: d.incidentId, state: incidentState(d.to) })
        : tx('logbook.incident.changed', {
            id: d.incidentId,
            from: incidentState(d.from),
            to: incidentState(d.to),
          });
    }
    case 'visit': {
      const parsed = LOGBOOK_DATA_SCHEMAS.visit.safeParse(entry.data);
      if (!parsed.success) break;
      const d = parsed.data;
      const parts = [tx('logbook.visit', { id: d.visitId, checked: d.checked, failed: d.failed })];
      if (d.findings) parts.push(tx('logbook.visit.findings', { text: d.findings }));
      if (d.partsUsed.length) parts.push(tx('logbook.visit.parts', { parts: d.partsUsed.join(', ') }));
      if (d.incidentIds.length)
        parts.push(tx('logbook.visit.incidents', { ids: d.incidentIds.map((id) => `#${id}`).join(', ') }));
      return parts.join(language === 'zh-CN' ? '；' : '; ');
    }
    case 'firmware': {
      const parsed = LOGBOOK_DATA_SCHEMAS.firmware.safeParse(entry.data);
      if (!parsed.success) break;
      const d = parsed.data;
      const version = d.version ?? '?';
      const parts = [
        d.state === 'done'
          ? tx('logbook.firmware.done', { version, running: d.runningVersion })
          : tx('logbook.firmware.failed', {
              version,
              running: d.runningVersion,
              reason: d.reason ? firmwareReasonText(d.reason, language) : '—',
            }),
      ];
      if (d.campaignName)
        parts.push(tx('logbook.firmware.campaign', { name: d.campaignName, approver: d.approvedBy ?? '—' }));
      return parts.join(language === 'zh-CN' ? '；' : '; ');
    }
    default:
      break;
  }
  return plainLine(entry.data);
}
