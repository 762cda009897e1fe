import {
  withinLimits,
  type ChecklistItemView,
  type MaintenanceVisitRecordInput,
} from '@liftlink/protocol';

/** The answer to one checklist item as the form holds it (a measured value as typed). */
export interface Answer {
  passed?: boolean;
  value?: string;
  note?: string;
}

export type Verdict = 'pass' | 'fail' | 'open';

/** A typed number: a comma is a decimal point too (Russian and many phone keyboards). */
export function parseMeasured(text: string | undefined): number | null {
  const trimmed = (text ?? '').trim().replace(',', '.');
  if (!/^-?\d+(\.\d+)?$|^-?\.\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/**
 * Pass or fail as the technician sees it at once: a measured value outside the item's limits
 * fails (the server decides the same way from the same limits); no or an unreadable answer is open.
 */
export function verdictOf(
  item: Pick<ChecklistItemView, 'type' | 'min' | 'max'>,
  answer?: Answer,
): Verdict {
  if (item.type === 'passFail') {
    if (answer?.passed === undefined) return 'open';
    return answer.passed ? 'pass' : 'fail';
  }
  const value = parseMeasured(answer?.value);
  if (value === null) return 'open';
  return withinLimits(item, value) ? 'pass' : 'fail';
}

export interface ChecklistTally {
  answered: number;
  failed: number;
  total: number;
}

export function tally(
  items: readonly ChecklistItemView[],
  answers: Record<string, Answer>,
): ChecklistTally {
  let answered = 0;
  let failed = 0;
  for (const item of items) {
    const verdict = verdictOf(item, answers[item.id]);
    if (verdict !== 'open') answered += 1;
    if (verdict === 'fail') failed += 1;
  }
  return { answered, failed, total: items.length };
}

/** What the visit form holds. */
export interface VisitValues {
  answers: Record<string, Answer>;
  findings?: string;
  partsUsed: string[];
  incidentIds: number[];
  rootCause?: string;
}

/**
 * The body of `visits/record` (maintenanceVisitRecordSchema): one answer per item in the
 * checklist's order, `passed` for pass/fail and `value` for measured items, trimmed texts,
 * empty parts left out; a root cause only with incidents to close.
 */
export function recordBody(
  liftId: string,
  items: readonly ChecklistItemView[],
  values: VisitValues,
  startedAt: string,
): MaintenanceVisitRecordInput {
  const results = items.map((item) => {
    const answer = values.answers[item.id] ?? {};
    const note = answer.note?.trim();
    const base = { itemId: item.id, ...(note ? { note } : {}) };
    if (item.type === 'passFail') return { ...base, passed: answer.passed === true };
    return { ...base, value: parseMeasured(answer.value) ?? Number.NaN };
  });
  const incidentIds = values.incidentIds ?? [];
  return {
    liftId,
    startedAt,
    results,
    findings: values.findings?.trim() ?? '',
    partsUsed: (values.partsUsed ?? []).map((p) => p.trim()).filter(Boolean),
    incidentIds,
    ...(incidentIds.length > 0 && values.rootCause ? { rootCause: values.rootCause } : {}),
  };
}

/** The limits of a measured item as words: "24–28.8", "≥ 0", "≤ 10". */
export function limitsText(item: Pick<ChecklistItemView, 'min' | 'max' | 'unit'>): string {
  const unit = item.unit ? ` ${item.unit}` : '';
  if (item.min != null && item.max != null) return `${item.min}–${item.max}${unit}`;
  if (item.min != null) return `≥ ${item.min}${unit}`;
  if (item.max != null) return `≤ ${item.max}${unit}`;
  return '';
}
