import { stringify } from 'csv-stringify/sync';

/**
 * A CSV download that spreadsheets open as it is: a byte order mark (Excel then reads
 * UTF-8), the header line, every cell quoted, CRLF between lines and none after the last.
 */
export function csvFile(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const lines = rows.length ? [stringify(rows as (string | number)[][], { quoted: true, quoted_empty: true, record_delimiter: '\r\n', eof: false })] : [];
  return '\uFEFF' + [header.join(','), ...lines].join('\r\n');
}
