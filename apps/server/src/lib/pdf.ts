import PDFDocument from 'pdfkit';
import { pickText, type LocalizedText } from '@liftlink/protocol';
import type { PdfFont } from './pdf-font.ts';

/**
 * What the server's PDFs (the logbook export, the reports) share: a pdfkit document with the
 * one font that writes Latin, Cyrillic and CJK (lib/pdf-font.ts) registered as `body`, its
 * bytes collected; times written the same way; page numbers at the foot of every page.
 */

export interface PdfStart {
  doc: PDFKit.PDFDocument;
  /** The file's bytes, once `doc.end()` was called. */
  done: Promise<Buffer>;
}

/** A buffered document (pages can be revisited for their foot) with `font` as `body`, selected. */
export function startPdf(font: PdfFont, options: PDFKit.PDFDocumentOptions): PdfStart {
  const doc = new PDFDocument({ ...options, bufferPages: true });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('body', font.path, font.family);
  doc.font('body');
  return { doc, done };
}

/**
 * A line at the foot of every page: `left` on the left, `right(page, pages)` on the right, at
 * `y` from the page's bottom edge. Called once the page count is known; the foot lies in the
 * bottom margin, which pdfkit would otherwise page past.
 */
export function pageFooters(doc: PDFKit.PDFDocument, box: { left: number; width: number; fromBottom: number; color: string }, left: string, right: (page: number, pages: number) => string): void {
  const pages = doc.bufferedPageRange();
  for (let i = 0; i < pages.count; i++) {
    doc.switchToPage(pages.start + i);
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - box.fromBottom;
    doc.fontSize(8).fillColor(box.color);
    doc.text(left, box.left, y, { width: box.width / 2, lineBreak: false });
    doc.text(right(i + 1, pages.count), box.left + box.width / 2, y, { width: box.width / 2, align: 'right', lineBreak: false });
    doc.page.margins.bottom = margin;
  }
}

/** `YYYY-MM-DD HH:mm:ss` in the zone. */
export function formatTime(iso: string | Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(iso));
  const p = Object.fromEntries(parts.map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

/** A text in `lang` with its `{name}` places filled. */
export function fill(text: LocalizedText, lang: string, values: Record<string, string | number> = {}): string {
  return pickText(text, lang).replace(/\{(\w+)\}/g, (all, key: string) => (key in values ? String(values[key]) : all));
}
