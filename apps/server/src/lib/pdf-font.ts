import { access } from 'node:fs/promises';
import { constants } from 'node:fs';
import { AppError } from './errors.ts';

/**
 * The font of the server's PDFs (the logbook, the reports). The PDF's built-in fonts (Helvetica, Times) have Latin
 * letters only; a logbook in Russian or Chinese, or with a Chinese lift alias in an English
 * one, needs one font with Latin, Cyrillic and CJK glyphs, embedded (pdfkit embeds the
 * glyphs used). No npm package ships such a font in one reasonably sized file (the Noto CJK
 * packages come as several weights of tens of megabytes, or as web fonts cut into many
 * unicode-range pieces), so the server takes a system font, the first of these that is
 * installed (docs/logbook.md, docs/operations.md): Debian/Ubuntu `fonts-wqy-microhei`
 * (what .ci/run installs), `fonts-wqy-zenhei`, `fonts-noto-cjk`; Alpine `font-wqy-zenhei`,
 * `font-noto-cjk`; Fedora/RHEL `google-noto-sans-cjk-*`. Each covers all three scripts
 * (DejaVu and Liberation have no CJK glyphs, so they are no fallback on their own).
 */
export interface PdfFont {
  path: string;
  /** The font's PostScript name inside a collection (.ttc); none for a single font file. */
  family?: string;
}

export const PDF_FONT_CANDIDATES: readonly PdfFont[] = [
  { path: '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', family: 'WenQuanYiMicroHei' },
  { path: '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc', family: 'WenQuanYiZenHei' },
  { path: '/usr/share/fonts/wqy-microhei/wqy-microhei.ttc', family: 'WenQuanYiMicroHei' },
  { path: '/usr/share/fonts/wqy-zenhei/wqy-zenhei.ttc', family: 'WenQuanYiZenHei' },
  { path: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', family: 'NotoSansCJKsc-Regular' },
  { path: '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc', family: 'NotoSansCJKsc-Regular' },
  { path: '/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc', family: 'NotoSansCJKsc-Regular' },
  { path: '/usr/share/fonts/google-noto-sans-cjk-fonts/NotoSansCJK-Regular.ttc', family: 'NotoSansCJKsc-Regular' },
  { path: '/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf' },
];

let found: PdfFont | null = null;

/** The first installed font of `candidates`; `logbook.pdfFont` (503) when there is none. */
export async function pdfFont(candidates: readonly PdfFont[] = PDF_FONT_CANDIDATES): Promise<PdfFont> {
  if (found && candidates === PDF_FONT_CANDIDATES) return found;
  for (const font of candidates) {
    try {
      await access(font.path, constants.R_OK);
      if (candidates === PDF_FONT_CANDIDATES) found = font;
      return font;
    } catch {
      // not installed here: the next one
    }
  }
  throw new AppError('logbook.pdfFont', { candidates: candidates.map((f) => f.path) });
}
