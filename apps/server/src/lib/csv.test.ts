import { describe, expect, it } from 'vitest';
import { csvFile } from './csv.ts';

/** The format the exports have always had: every cell quoted, quotes doubled. */
function reference(header: string[], rows: (string | number)[][]): string {
  const cell = (v: string | number) => `"${String(v).replaceAll('"', '""')}"`;
  return '\uFEFF' + [header.join(','), ...rows.map((r) => r.map(cell).join(','))].join('\r\n');
}

describe('CSV downloads', () => {
  it('quote every cell, double quotes inside, keep line breaks and commas in their cell', () => {
    const rows = [['2026-01-01T00:00:00.000Z', 'RZY2', 'Lift "A", floor 2\r\nnext', 'state', 2], ['t', '', '单元', 'fault', '']];
    expect(csvFile(['time', 'code', 'meaning', 'class', 'floor'], rows)).toBe(
      '\uFEFFtime,code,meaning,class,floor\r\n"2026-01-01T00:00:00.000Z","RZY2","Lift ""A"", floor 2\r\nnext","state","2"\r\n"t","","单元","fault",""',
    );
  });

  it('write the header alone when there are no rows', () => {
    expect(csvFile(['time', 'user'], [])).toBe('\uFEFFtime,user');
  });

  it('give the same file as the hand-written format for awkward text and numbers', () => {
    const awkward = ['', ' ', '"', '""', 'a,b', 'line\nbreak', 'cr\rlf\r\n', '=SUM(A1)', '\0nul', '\t tab', '单元 2', 'Лифт', '🚀', ' lead', 'trail ', "it's", 0, -1, 3.5, 1e21];
    const rows = awkward.map((v, i) => [v, awkward[(i * 7) % awkward.length]!, String(i)]);
    expect(csvFile(['a', 'b', 'c'], rows)).toBe(reference(['a', 'b', 'c'], rows));
  });
});
