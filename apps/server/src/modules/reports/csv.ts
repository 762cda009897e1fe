import { AVAILABILITY_STATES, type AvailabilityFigures } from '@liftlink/protocol';
import { csvFile } from '../../lib/csv.ts';
import { fill } from '../../lib/pdf.ts';
import { namedRows, type ReportContent } from './model.ts';
import { REPORT_TEXTS, STATE_TEXTS } from './texts.ts';

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** A number for a spreadsheet: a point as the decimal mark, at most `digits` decimals; none: empty. */
const num = (v: number | null, digits: number): string => (v === null ? '' : String(Number(v.toFixed(digits))));

/**
 * The report's rows as CSV (docs/reports.md): UTF-8 with a byte order mark, the header in the
 * report's language, one line per site (organization report) or lift (site report) and a
 * total line; plain numbers (availability in percent, MTTA/MTTR in minutes, MTBF and the time
 * in each state in hours) so a spreadsheet computes with them.
 */
export function reportCsv(content: ReportContent): string {
  const lang = content.language;
  const tr = (key: keyof typeof REPORT_TEXTS) => fill(REPORT_TEXTS[key], lang);
  const header = [
    tr(content.site === null ? 'siteColumn' : 'liftColumn'),
    tr('lifts'),
    tr('availabilityPercent'),
    tr('trips'),
    tr('failures'),
    tr('incidents'),
    tr('mttaMinutes'),
    tr('mttrMinutes'),
    tr('mtbfHours'),
    ...AVAILABILITY_STATES.map((s) => fill(REPORT_TEXTS.stateHours, lang, { state: fill(STATE_TEXTS[s], lang) })),
  ];
  const line = (name: string, lifts: number, f: AvailabilityFigures) => [
    name,
    lifts,
    num(f.availability === null ? null : f.availability * 100, 2),
    f.trips,
    f.failures,
    f.incidents,
    num(f.mtta === null ? null : f.mtta / MINUTE, 1),
    num(f.mttr === null ? null : f.mttr / MINUTE, 1),
    num(f.mtbf === null ? null : f.mtbf / HOUR, 2),
    ...AVAILABILITY_STATES.map((s) => num(f.times[s] / HOUR, 2)),
  ];
  const rows = namedRows(content, tr('noSite'));
  const lifts = rows.reduce((sum, r) => sum + r.lifts, 0);
  return csvFile(header, [...rows.map((r) => line(r.name, r.lifts, r.figures)), line(tr('total'), lifts, content.current.total)]);
}
