/**
 * Charts drawn with pdfkit's vector primitives (rectangles, lines, text): the PDF stays
 * small and sharp at any zoom, and no chart library or browser is needed on the server.
 */

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Bar {
  /** Under the bar (the month). */
  label: string;
  /** Null: nothing to show (no bar, the chart's "no data" mark). */
  value: number | null;
  /** Above the bar. */
  text: string;
}

export interface BarChartOptions {
  title: string;
  /** The axis' top value. */
  max: number;
  /** Lines across the plot with their labels on the axis. */
  ticks: { value: number; label: string }[];
  color: string;
  /** The bar to draw darker (the report's month). */
  highlight?: number;
  /** The legend of the "—" drawn where a bar has no value ("no data"). */
  noData: string;
}

const AXIS = '#8c8c8c';
const GRID = '#e8e8e8';
const LABEL = '#595959';
const INK = '#1f1f1f';
const TITLE_SIZE = 10;
const LABEL_SIZE = 7;
const AXIS_WIDTH = 38;

/** A column chart in `box`: the title on top, the value axis on the left, one bar per entry. */
export function barChart(doc: PDFKit.PDFDocument, box: Box, bars: Bar[], o: BarChartOptions): void {
  doc.save();
  doc.fontSize(TITLE_SIZE).fillColor(INK).text(o.title, box.x, box.y, { width: box.width, lineBreak: false });
  // A month without figures gets a dash, not its words: a word per bar would not fit twelve bars.
  if (bars.some((b) => b.value === null)) doc.fontSize(LABEL_SIZE).fillColor(LABEL).text(`— ${o.noData}`, box.x, box.y + 2, { width: box.width, align: 'right', lineBreak: false });
  const plot = { x: box.x + AXIS_WIDTH, y: box.y + TITLE_SIZE + 16, width: box.width - AXIS_WIDTH, height: box.height - TITLE_SIZE - 16 - LABEL_SIZE - 8 };
  const yOf = (v: number) => plot.y + plot.height - (Math.min(v, o.max) / o.max) * plot.height;

  doc.fontSize(LABEL_SIZE);
  for (const tick of o.ticks) {
    const y = yOf(tick.value);
    doc.moveTo(plot.x, y).lineTo(plot.x + plot.width, y).lineWidth(0.5).strokeColor(GRID).stroke();
    doc.fillColor(LABEL).text(tick.label, box.x, y - LABEL_SIZE / 2 - 1, { width: AXIS_WIDTH - 4, align: 'right', lineBreak: false });
  }
  doc.moveTo(plot.x, plot.y).lineTo(plot.x, plot.y + plot.height).lineTo(plot.x + plot.width, plot.y + plot.height).lineWidth(0.8).strokeColor(AXIS).stroke();

  const slot = plot.width / Math.max(1, bars.length);
  const barWidth = Math.min(28, slot * 0.62);
  bars.forEach((bar, i) => {
    const cx = plot.x + slot * i + slot / 2;
    doc.fillColor(LABEL).text(bar.label, cx - slot / 2, plot.y + plot.height + 4, { width: slot, align: 'center', lineBreak: false });
    if (bar.value === null) {
      doc.fillColor(AXIS).text('—', cx - slot / 2, plot.y + plot.height - LABEL_SIZE - 4, { width: slot, align: 'center', lineBreak: false });
      return;
    }
    const top = yOf(bar.value);
    const height = plot.y + plot.height - top;
    if (height > 0) doc.rect(cx - barWidth / 2, top, barWidth, height).fillOpacity(i === o.highlight ? 1 : 0.55).fill(o.color).fillOpacity(1);
    doc.fillColor(INK).text(bar.text, cx - slot / 2, top - LABEL_SIZE - 3, { width: slot, align: 'center', lineBreak: false });
  });
  doc.restore();
}

/** A readable top for a count axis (1, 2, 5 × 10ⁿ, at least `floor`) and its ticks. */
export function niceMax(value: number, floor = 5): number {
  const v = Math.max(value, floor);
  const power = 10 ** Math.floor(Math.log10(v));
  for (const step of [1, 2, 5, 10]) if (step * power >= v) return step * power;
  return 10 * power;
}

export interface Segment {
  value: number;
  color: string;
}

/** One horizontal bar cut in proportion to the segments' values (nothing drawn when they sum to 0). */
export function stackedBar(doc: PDFKit.PDFDocument, box: Box, segments: Segment[]): void {
  const sum = segments.reduce((s, x) => s + x.value, 0);
  doc.save();
  doc.rect(box.x, box.y, box.width, box.height).lineWidth(0.5).strokeColor(AXIS).stroke();
  if (sum > 0) {
    let x = box.x;
    for (const s of segments) {
      const w = (s.value / sum) * box.width;
      if (w > 0) doc.rect(x, box.y, w, box.height).fill(s.color);
      x += w;
    }
  }
  doc.restore();
}
