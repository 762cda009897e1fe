import { pickText, type LogbookEntry, type LogbookKind, type LogbookVerifyResult } from '@liftlink/protocol';
import type { PdfFont } from '../../lib/pdf-font.ts';
import { fill, formatTime, pageFooters, startPdf } from '../../lib/pdf.ts';
import { DEVICE_KIND_TEXTS, KIND_TEXTS, PDF_TEXTS, PROBLEM_TEXTS, entryText } from './pdf-texts.ts';

/** What the PDF's first page says of the lift and the export. */
export interface LogbookPdfInput {
  lift: { deviceNo: string | null; alias: string; kind: string; maker: string | null; operator: string | null };
  entries: LogbookEntry[];
  verify: LogbookVerifyResult;
  filter: { kinds?: LogbookKind[] | undefined; from?: string | undefined; to?: string | undefined };
  exportedAt: Date;
  exportedBy: string;
  language: string;
  /** An IANA zone the times are written in; UTC when the caller named none. */
  timeZone: string;
  font: PdfFont;
}

/** Hashes as the table shows them: enough to compare with the CSV or the verify answer by eye. */
export const SHORT_HASH = 12;
/** The longest text a cell shows: a row never grows past a page. */
const CELL_MAX = 1_200;

const MARGIN = 36;
const FOOTER = 22;
const BODY = 8.5;
const PAD = 3;
const INK = '#1f1f1f';
const MUTED = '#595959';
const RULE = '#d9d9d9';
const HEAD_FILL = '#f0f0f0';
const BROKEN_FILL = '#fff1f0';
const BROKEN_INK = '#a8071a';
const OK_INK = '#135200';

const clip = (text: string) => (text.length > CELL_MAX ? `${text.slice(0, CELL_MAX)}…` : text);

/**
 * The logbook as a PDF (docs/logbook.md): A4 landscape; the lift, the range, the time of the
 * export and the chain's verification on top; then one row per entry: seq, time in the
 * caller's zone, kind, who, what happened in words, the hash shortened; a row that breaks
 * the chain is marked; the table's head again on every page; page numbers at the foot.
 */
export async function logbookPdf(input: LogbookPdfInput): Promise<Buffer> {
  const lang = input.language;
  const tr = (text: Parameters<typeof pickText>[0], values?: Record<string, string | number>) => fill(text, lang, values);
  const time = (iso: string | Date) => formatTime(iso, input.timeZone);
  const title = `${tr(PDF_TEXTS.title)} · ${input.lift.deviceNo ?? '—'}`;

  const { doc, done } = startPdf(input.font, {
    size: 'A4',
    layout: 'landscape',
    margins: { top: MARGIN, bottom: MARGIN + FOOTER, left: MARGIN, right: MARGIN },
    info: { Title: title, Author: input.exportedBy, Creator: 'LiftLink', CreationDate: input.exportedAt },
  });
  doc.fillColor(INK);

  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN - FOOTER;

  // The head: the lift and the export.
  doc.fontSize(16).text(title, left, MARGIN, { width });
  doc.moveDown(0.4);
  const range =
    input.filter.from && input.filter.to
      ? `${time(input.filter.from)} – ${time(input.filter.to)}`
      : input.filter.from
        ? tr(PDF_TEXTS.since, { from: time(input.filter.from) })
        : input.filter.to
          ? tr(PDF_TEXTS.until, { to: time(input.filter.to) })
          : tr(PDF_TEXTS.allTime);
  const facts: [string, string][] = [
    [tr(PDF_TEXTS.deviceNo), input.lift.deviceNo ?? '—'],
    [tr(PDF_TEXTS.alias), input.lift.alias || '—'],
    [tr(PDF_TEXTS.kind), DEVICE_KIND_TEXTS[input.lift.kind] ? tr(DEVICE_KIND_TEXTS[input.lift.kind]!) : input.lift.kind],
    [tr(PDF_TEXTS.maker), input.lift.maker ?? tr(PDF_TEXTS.none)],
    [tr(PDF_TEXTS.operator), input.lift.operator ?? tr(PDF_TEXTS.none)],
    [tr(PDF_TEXTS.range), range],
    [tr(PDF_TEXTS.kinds), input.filter.kinds?.length ? input.filter.kinds.map((k) => tr(KIND_TEXTS[k])).join(', ') : tr(PDF_TEXTS.allKinds)],
    [tr(PDF_TEXTS.exported), tr(PDF_TEXTS.exportedBy, { at: time(input.exportedAt), name: input.exportedBy })],
    [tr(PDF_TEXTS.timeZone), input.timeZone],
    [tr(PDF_TEXTS.entries), String(input.entries.length)],
  ];
  const labelWidth = 150;
  doc.fontSize(9.5);
  for (const [label, value] of facts) {
    const y = doc.y;
    doc.fillColor(MUTED).text(label, left, y, { width: labelWidth - 8 });
    const afterLabel = doc.y;
    doc.fillColor(INK).text(value, left + labelWidth, y, { width: width - labelWidth });
    doc.y = Math.max(afterLabel, doc.y) + 1;
  }

  // The chain's verification.
  doc.moveDown(0.6);
  doc.fontSize(11).fillColor(INK).text(tr(PDF_TEXTS.verification), left, doc.y, { width });
  doc.moveDown(0.2);
  const v = input.verify;
  doc.fontSize(9.5);
  if (v.broken) {
    doc.fillColor(BROKEN_INK).text(`× ${tr(PDF_TEXTS.broken, { seq: v.broken.seq })}: ${tr(PROBLEM_TEXTS[v.broken.problem])} ${tr(PDF_TEXTS.checkedBefore, { checked: v.checked })}`, left, doc.y, { width });
  } else {
    doc.fillColor(OK_INK).text(`✓ ${v.headSeq === 0 ? tr(PDF_TEXTS.okEmpty) : tr(PDF_TEXTS.ok, { checked: v.checked })}`, left, doc.y, { width });
  }
  if (v.headSeq > 0 && v.headHash) doc.fillColor(MUTED).text(tr(PDF_TEXTS.head, { seq: v.headSeq, hash: v.headHash }), left, doc.y, { width });
  doc.fontSize(8).fillColor(MUTED).text(tr(PDF_TEXTS.hashNote), left, doc.y + 2, { width });
  doc.moveDown(0.8);

  // The table.
  const columns = [
    { key: 'seq', title: tr(PDF_TEXTS.seq), width: 40 },
    { key: 'ts', title: tr(PDF_TEXTS.time), width: 96 },
    { key: 'kind', title: tr(PDF_TEXTS.kindColumn), width: 88 },
    { key: 'actor', title: tr(PDF_TEXTS.actor), width: 100 },
    { key: 'summary', title: tr(PDF_TEXTS.summary), width: 0 },
    { key: 'hash', title: tr(PDF_TEXTS.hash), width: 74 },
  ];
  columns[4]!.width = width - columns.reduce((sum, c) => sum + c.width, 0);
  doc.fontSize(BODY);
  const cellHeight = (text: string, w: number) => doc.heightOfString(text, { width: w - 2 * PAD }) + 2 * PAD;

  const drawRow = (cells: string[], options: { fill?: string; ink?: string } = {}) => {
    const height = Math.max(...cells.map((text, i) => cellHeight(text, columns[i]!.width)));
    const y = doc.y;
    if (options.fill) doc.save().rect(left, y, width, height).fill(options.fill).restore();
    let x = left;
    cells.forEach((text, i) => {
      doc.fillColor(options.ink ?? INK).text(text, x + PAD, y + PAD, { width: columns[i]!.width - 2 * PAD });
      x += columns[i]!.width;
    });
    doc.save().moveTo(left, y + height).lineTo(left + width, y + height).lineWidth(0.5).strokeColor(RULE).stroke().restore();
    doc.y = y + height;
    return height;
  };
  const drawHead = () => drawRow(columns.map((c) => c.title), { fill: HEAD_FILL, ink: MUTED });
  const headHeight = Math.max(...columns.map((c) => cellHeight(c.title, c.width)));

  if (doc.y + headHeight * 2 > bottom()) doc.addPage();
  drawHead();
  if (input.entries.length === 0) drawRow(['', '', '', '', tr(PDF_TEXTS.empty), '']);
  for (const e of input.entries) {
    const isBroken = v.broken?.seq === e.seq;
    const summary = clip(entryText(e, lang));
    const cells = [
      String(e.seq),
      time(e.ts),
      pickText(KIND_TEXTS[e.kind], lang),
      e.actorName ?? tr(PDF_TEXTS.system),
      isBroken ? `${summary}\n▲ ${tr(PDF_TEXTS.brokenMark)}: ${tr(PROBLEM_TEXTS[v.broken!.problem])}` : summary,
      e.hash.slice(0, SHORT_HASH),
    ];
    const height = Math.max(...cells.map((text, i) => cellHeight(text, columns[i]!.width)));
    if (doc.y + height > bottom()) {
      doc.addPage();
      drawHead();
    }
    drawRow(cells, isBroken ? { fill: BROKEN_FILL, ink: BROKEN_INK } : {});
  }

  // Page numbers, once the count is known.
  pageFooters(doc, { left, width, fromBottom: MARGIN + 10, color: MUTED }, `${title} · ${time(input.exportedAt)} ${input.timeZone}`, (page, pages) => tr(PDF_TEXTS.page, { page, pages }));
  doc.end();
  return done;
}
