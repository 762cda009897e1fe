import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AVAILABILITY_STATES, type AvailabilityFigures, type AvailabilityReport } from '@liftlink/protocol';
import { pdfFont } from '../../lib/pdf-font.ts';
import { reportPdf } from './pdf.ts';
import { formatDuration, formatPercent } from './texts.ts';

const H = 3_600_000;
const dir = process.env.REPORTS_PDF_KEEP ?? mkdtempSync(path.join(tmpdir(), 'report-pdf-'));
const kept = Boolean(process.env.REPORTS_PDF_KEEP);
afterAll(() => {
  if (!kept) rmSync(dir, { recursive: true, force: true });
});

const figures = (inService: number, faulted: number, trips: number): AvailabilityFigures => ({
  times: { ...(Object.fromEntries(AVAILABILITY_STATES.map((s) => [s, 0])) as AvailabilityFigures['times']), inService: inService * H, faulted: faulted * H },
  availability: inService / (inService + faulted),
  trips,
  failures: faulted ? 1 : 0,
  incidents: 0,
  mtta: null,
  mttr: null,
  mtbf: faulted ? inService * H : null,
});

function report(rows: number): AvailabilityReport {
  return {
    level: 'lifts',
    from: '2026-10',
    to: '2026-10',
    months: [{ month: '2026-10', figures: figures(700, 20, 10) }],
    total: figures(700 * rows, 20 * rows, 10 * rows),
    rows: Array.from({ length: rows }, (_, i) => ({ key: `k${i}`, name: `Подъёмник ${String(i + 1).padStart(3, '0')} 北站 Lift`, lifts: 1, figures: figures(700, 20, 10) })),
    asOf: '2026-11-01T05:00:00.000Z',
  };
}

const read = (pdf: Buffer, name: string) => {
  const file = path.join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
};

describe('the report PDF', () => {
  it('pages a long table: every row once, the head again on each page, page numbers', async () => {
    const content = { orgName: 'Ops', site: 'Север', month: '2026-10', language: 'ru-RU' as const, generatedAt: new Date('2026-11-01T05:00:00Z'), generatedBy: null, year: report(120), current: report(120) };
    const text = read(await reportPdf(content, await pdfFont()), 'long');
    const pages = text.split('\f').filter((p) => p.trim());
    expect(pages.length).toBeGreaterThanOrEqual(4);
    for (let i = 1; i <= 120; i++) expect(text.match(new RegExp(`Подъёмник ${String(i).padStart(3, '0')} 北站`, 'g')), `row ${i}`).toHaveLength(1);
    // Pages 2.. hold the table: each begins with its head.
    for (const page of pages.slice(2)) expect(page).toMatch(/Лифт\s+Лифты\s+Доступность/);
    expect(pages.at(-1)).toContain(`Страница ${pages.length} из ${pages.length}`);
    expect(text).toContain('ежемесячная рассылка');
    expect(text).toContain(formatPercent(700 / 720, 'ru-RU').replace(/\u00a0/g, ' '));
  });

  it('writes durations and shares as each language does', () => {
    expect(formatDuration(0, 'en-US')).toBe('0 min');
    expect(formatDuration(20_000, 'en-US')).toBe('< 1 min');
    expect(formatDuration(70 * 60_000, 'ru-RU')).toBe('1 ч 10 мин');
    expect(formatDuration(25 * H, 'zh-CN')).toBe('1天1小时');
    expect(formatDuration(48 * H, 'en-US')).toBe('2 d');
    expect(formatDuration(null, 'en-US')).toBe('—');
    expect(formatPercent(0.8019, 'en-US')).toBe('80.2%');
    expect(formatPercent(0.8019, 'ru-RU').replace(/\u00a0/g, ' ')).toBe('80,2 %');
    expect(formatPercent(null, 'zh-CN')).toBe('—');
  });
});
