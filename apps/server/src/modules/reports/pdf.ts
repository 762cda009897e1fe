import { AVAILABILITY_STATES, type AvailabilityFigures } from '@liftlink/protocol';
import type { PdfFont } from '../../lib/pdf-font.ts';
import { fill, formatTime, pageFooters, startPdf } from '../../lib/pdf.ts';
import { barChart, niceMax, stackedBar } from './charts.ts';
import { namedRows, type ReportContent } from './model.ts';
import { REPORT_TEXTS, STATE_COLORS, STATE_TEXTS, formatCount, formatDuration, formatMonth, formatMonthShort, formatPercent } from './texts.ts';

const MARGIN = 40;
const FOOTER = 20;
const INK = '#1f1f1f';
const MUTED = '#595959';
const RULE = '#d9d9d9';
const HEAD_FILL = '#f0f0f0';
const TOTAL_FILL = '#fafafa';
const AVAILABILITY_COLOR = '#389e0d';
const TRIPS_COLOR = '#1d39c4';
const PAD = 3;

type Tr = (key: keyof typeof REPORT_TEXTS, values?: Record<string, string | number>) => string;

/**
 * The report as a PDF (docs/reports.md), A4 portrait, in `content.language`: the first page
 * names the organization, the site, the month and when it was built, the month's key figures
 * and the charts of availability and trips over 12 months; then the time by state, and the
 * figures per site (organization report) or per lift (site report) with a total row; the
 * table's head again on every page; page numbers at the foot.
 */
export async function reportPdf(content: ReportContent, font: PdfFont): Promise<Buffer> {
  const lang = content.language;
  const tr: Tr = (key, values) => fill(REPORT_TEXTS[key], lang, values);
  const monthText = formatMonth(content.month, lang);
  const where = content.site === null ? tr('wholeOrg') : content.site;
  const title = `${tr('title')} · ${monthText}`;
  const { doc, done } = startPdf(font, {
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN + FOOTER, left: MARGIN, right: MARGIN },
    info: { Title: `${title} · ${content.orgName} · ${where}`, Author: content.generatedBy ?? 'LiftLink', Creator: 'LiftLink', CreationDate: content.generatedAt },
  });
  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN - FOOTER;
  const total = content.current.total;

  // The title and what the report covers.
  doc.fillColor(INK).fontSize(18).text(tr('title'), left, MARGIN, { width });
  doc.moveDown(0.5);
  const facts: [string, string][] = [
    [tr('organization'), content.orgName],
    [tr('site'), where],
    [tr('month'), `${monthText} (${content.month})`],
    [tr('generated'), `${formatTime(content.generatedAt, 'UTC')} UTC`],
    [tr('generatedBy'), content.generatedBy ?? tr('monthlyJob')],
  ];
  const labelWidth = 130;
  doc.fontSize(10);
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.fillColor(MUTED).text(label, left, y, { width: labelWidth - 8 });
    const afterLabel = doc.y;
    doc.fillColor(INK).text(value, left + labelWidth, y, { width: width - labelWidth });
    doc.y = Math.max(afterLabel, doc.y) + 2;
  }
  if (content.current.asOf.slice(0, 7) === content.month) doc.fontSize(8.5).fillColor(MUTED).text(tr('monthNotOver'), left, doc.y + 2, { width });

  // The month's key figures, as tiles.
  doc.moveDown(0.8);
  doc.fontSize(12).fillColor(INK).text(tr('keyFigures'), left, doc.y, { width });
  doc.moveDown(0.3);
  const tiles: [string, string][] = [
    [tr('availability'), formatPercent(total.availability, lang)],
    [tr('trips'), formatCount(total.trips, lang)],
    [tr('failures'), formatCount(total.failures, lang)],
    [tr('incidents'), formatCount(total.incidents, lang)],
    [tr('mtta'), formatDuration(total.mtta, lang)],
    [tr('mttr'), formatDuration(total.mttr, lang)],
    [tr('mtbf'), formatDuration(total.mtbf, lang)],
  ];
  const perRow = 4;
  const gap = 8;
  const tileWidth = (width - gap * (perRow - 1)) / perRow;
  const tileHeight = 44;
  const tilesTop = doc.y;
  tiles.forEach(([label, value], i) => {
    const x = left + (i % perRow) * (tileWidth + gap);
    const y = tilesTop + Math.floor(i / perRow) * (tileHeight + gap);
    doc.save().roundedRect(x, y, tileWidth, tileHeight, 3).lineWidth(0.5).strokeColor(RULE).stroke().restore();
    doc.fontSize(8).fillColor(MUTED).text(label, x + 6, y + 6, { width: tileWidth - 12, lineBreak: false, ellipsis: true });
    doc.fontSize(14).fillColor(INK).text(value, x + 6, y + 20, { width: tileWidth - 12, lineBreak: false });
  });
  doc.y = tilesTop + Math.ceil(tiles.length / perRow) * (tileHeight + gap) + 6;

  // Availability and trips over the 12 months up to the report's month.
  const months = content.year.months;
  const span = months.length ? ` (${months[0]!.month} – ${months[months.length - 1]!.month})` : '';
  const highlight = months.findIndex((m) => m.month === content.month);
  const chartHeight = 170;
  barChart(
    doc,
    { x: left, y: doc.y, width, height: chartHeight },
    months.map((m) => ({ label: formatMonthShort(m.month, lang), value: m.figures.availability, text: m.figures.availability === null ? '' : formatPercent(m.figures.availability, lang) })),
    { title: `${tr('availabilityChart')}${span}`, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1].map((v) => ({ value: v, label: formatPercent(v, lang) })), color: AVAILABILITY_COLOR, highlight, noData: tr('noData') },
  );
  doc.y += chartHeight + 14;
  const tripsMax = niceMax(Math.max(0, ...months.map((m) => m.figures.trips)));
  barChart(
    doc,
    { x: left, y: doc.y, width, height: chartHeight },
    months.map((m) => ({ label: formatMonthShort(m.month, lang), value: m.figures.trips, text: formatCount(m.figures.trips, lang) })),
    { title: `${tr('tripsChart')}${span}`, max: tripsMax, ticks: [0, 0.2, 0.4, 0.6, 0.8, 1].map((f) => ({ value: tripsMax * f, label: formatCount(Math.round(tripsMax * f), lang) })), color: TRIPS_COLOR, highlight, noData: tr('noData') },
  );

  // Time by state in the month.
  doc.addPage();
  doc.fontSize(12).fillColor(INK).text(tr('states'), left, MARGIN, { width });
  doc.moveDown(0.3);
  const lifts = content.current.rows.reduce((sum, r) => sum + r.lifts, 0);
  doc.fontSize(8.5).fillColor(MUTED).text(tr('statesNote', { lifts }), left, doc.y, { width });
  doc.moveDown(0.5);
  stackedBar(doc, { x: left, y: doc.y, width, height: 16 }, AVAILABILITY_STATES.map((s) => ({ value: total.times[s], color: STATE_COLORS[s] })));
  doc.y += 24;
  const allTime = AVAILABILITY_STATES.reduce((sum, s) => sum + total.times[s], 0);
  const stateColumns = [16, 200, 120, 80];
  const stateRow = (cells: string[], color: string | null, ink = INK) => {
    const y = doc.y;
    if (color) doc.save().rect(left + 2, y + 2, 9, 9).fill(color).restore();
    let x = left + stateColumns[0]!;
    cells.forEach((text, i) => {
      doc.fontSize(9).fillColor(ink).text(text, x, y, { width: stateColumns[i + 1]! - 6, align: i === 0 ? 'left' : 'right', lineBreak: false });
      x += stateColumns[i + 1]!;
    });
    doc.y = y + 15;
  };
  stateRow([tr('state'), tr('time'), tr('share')], null, MUTED);
  for (const s of AVAILABILITY_STATES) stateRow([fill(STATE_TEXTS[s], lang), formatDuration(total.times[s], lang), formatPercent(allTime ? total.times[s] / allTime : null, lang)], STATE_COLORS[s]);

  // The figures per site or per lift, and their total.
  doc.moveDown(1);
  doc.fontSize(12).fillColor(INK).text(tr(content.site === null ? 'figuresBySite' : 'figuresByLift'), left, doc.y, { width });
  doc.moveDown(0.3);
  const columns = [
    { title: tr(content.site === null ? 'siteColumn' : 'liftColumn'), width: 0, align: 'left' as const },
    { title: tr('lifts'), width: 40, align: 'right' as const },
    { title: tr('availability'), width: 58, align: 'right' as const },
    { title: tr('trips'), width: 46, align: 'right' as const },
    { title: tr('failures'), width: 44, align: 'right' as const },
    { title: tr('incidents'), width: 50, align: 'right' as const },
    { title: tr('mtta'), width: 56, align: 'right' as const },
    { title: tr('mttr'), width: 56, align: 'right' as const },
    { title: tr('mtbf'), width: 62, align: 'right' as const },
  ];
  columns[0]!.width = width - columns.reduce((sum, c) => sum + c.width, 0);
  const cells = (name: string, lifts: number, f: AvailabilityFigures) => [
    name,
    formatCount(lifts, lang),
    formatPercent(f.availability, lang),
    formatCount(f.trips, lang),
    formatCount(f.failures, lang),
    formatCount(f.incidents, lang),
    formatDuration(f.mtta, lang),
    formatDuration(f.mttr, lang),
    formatDuration(f.mtbf, lang),
  ];
  const BODY = 8;
  const cellHeight = (text: string, w: number, size: number) => {
    doc.fontSize(size);
    return doc.heightOfString(text, { width: w - 2 * PAD }) + 2 * PAD;
  };
  const drawRow = (texts: string[], o: { fill?: string; ink?: string; size?: number } = {}) => {
    const size = o.size ?? BODY;
    const height = Math.max(...texts.map((text, i) => cellHeight(text, columns[i]!.width, size)));
    const y = doc.y;
    if (o.fill) doc.save().rect(left, y, width, height).fill(o.fill).restore();
    let x = left;
    doc.fontSize(size);
    texts.forEach((text, i) => {
      doc.fillColor(o.ink ?? INK).text(text, x + PAD, y + PAD, { width: columns[i]!.width - 2 * PAD, align: columns[i]!.align });
      x += columns[i]!.width;
    });
    doc.save().moveTo(left, y + height).lineTo(left + width, y + height).lineWidth(0.5).strokeColor(RULE).stroke().restore();
    doc.y = y + height;
  };
  const heads = columns.map((c) => c.title);
  const drawHead = () => drawRow(heads, { fill: HEAD_FILL, ink: MUTED, size: 7.5 });
  const rowHeight = (texts: string[]) => Math.max(...texts.map((text, i) => cellHeight(text, columns[i]!.width, BODY)));
  drawHead();
  const rows = namedRows(content, tr('noSite'));
  if (!rows.length) drawRow([tr('noRows'), '', '', '', '', '', '', '', '']);
  for (const row of rows) {
    const texts = cells(row.name, row.lifts, row.figures);
    if (doc.y + rowHeight(texts) > bottom()) {
      doc.addPage();
      doc.y = MARGIN;
      drawHead();
    }
    drawRow(texts);
  }
  const totals = cells(tr('total'), lifts, total);
  if (doc.y + rowHeight(totals) > bottom()) {
    doc.addPage();
    doc.y = MARGIN;
    drawHead();
  }
  drawRow(totals, { fill: TOTAL_FILL });
  doc.moveDown(0.6);
  doc.fontSize(7.5).fillColor(MUTED).text(tr('definitions'), left, doc.y, { width });

  pageFooters(doc, { left, width, fromBottom: MARGIN + 8, color: MUTED }, `${content.orgName} · ${where} · ${content.month}`, (page, pages) => tr('page', { page, pages }));
  doc.end();
  return done;
}
