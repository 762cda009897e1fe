/**
 * Renders the installable app's PNG icons from the product mark (public/logo.svg) with the
 * Chromium the end-to-end tests use: `node --import tsx apps/web/build/render-icons.ts`.
 * The PNGs are committed; run this again only when the mark changes.
 *
 * - icon-192.png, icon-512.png: the mark as it is (rounded square), for launchers and the
 *   install prompt;
 * - maskable-512.png: the mark's content inside the inner 80 % on a full red square, so a
 *   launcher that crops to a circle or a squircle cuts nothing of it;
 * - apple-touch-icon.png (180 px): a full square, iOS rounds it itself.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const publicDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../public');
const mark = readFileSync(path.join(publicDir, 'logo.svg'), 'utf8');
/** The mark's drawing without its rounded background. */
const drawing = mark.replace(/<rect width="64" height="64" rx="14" fill="#F5222D"\/>/, '');

const ICONS: { file: string; size: number; svg: string }[] = [
  { file: 'icon-192.png', size: 192, svg: mark },
  { file: 'icon-512.png', size: 512, svg: mark },
  {
    file: 'maskable-512.png',
    size: 512,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#F5222D"/><g transform="translate(6.4 6.4) scale(0.8)">${drawing.replace(/^<svg[^>]*>|<\/svg>$/g, '')}</g></svg>`,
  },
  {
    file: 'apple-touch-icon.png',
    size: 180,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#F5222D"/>${drawing.replace(/^<svg[^>]*>|<\/svg>$/g, '')}</svg>`,
  },
];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${icon.svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `)}</body></html>`,
    );
    await page.screenshot({ path: path.join(publicDir, 'icons', icon.file), omitBackground: true });
    await page.close();
    console.log(`icons/${icon.file} ${icon.size}x${icon.size}`);
  }
} finally {
  await browser.close();
}
