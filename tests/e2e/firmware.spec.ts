import { createHash, randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { test, expect, ADMIN, asAdmin, signIn } from './fixtures.ts';

/**
 * Firmware packages (docs/firmware.md): the manufacturer's engineer reads the signing key the
 * bench writes into lifts, creates a package with its image through the page, sees it ready
 * with the image's SHA-256, and withdraws it. A bad file is refused before anything is sent.
 */

/** Opens "New package" and fills everything but the file. */
async function fillNewPackage(page: Page, version: string) {
  await page.getByRole('button', { name: 'New package' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Lift kinds').click();
  await page.locator('.ant-select-dropdown:visible [title="Inclined straight rack lift"]').click();
  await page.keyboard.press('Escape');
  await dialog.getByLabel('Version', { exact: true }).fill(version);
  await dialog.getByLabel('Minimum version').fill('FW-1.0.0');
  await dialog.getByLabel('Release notes (English)').fill('Gentler stop at the landings');
  return dialog;
}

const fileInput = (page: Page) => page.getByRole('dialog').locator('input[type="file"]');

test('a package is created with its image, shows its SHA-256, and is withdrawn; an empty file is refused', async ({
  page,
}) => {
  const version = `FW-7.${Date.now() % 100_000}.0`;
  const image = randomBytes(300_000);
  const sha256 = createHash('sha256').update(image).digest('hex');

  await signIn(page, ADMIN.username, ADMIN.password);
  await page.waitForURL(/dashboard\//);
  await page.goto('/manufacture/firmware');
  // The key the factory bench writes into the lifts.
  await expect(page.getByTestId('firmware-key-id')).toHaveText(/^[0-9a-f]{16}/);

  // An empty image: refused on the form, nothing is created.
  let dialog = await fillNewPackage(page, version);
  await fileInput(page).setInputFiles({
    name: 'empty.bin',
    mimeType: 'application/octet-stream',
    buffer: Buffer.alloc(0),
  });
  await dialog.getByRole('button', { name: 'Create and upload' }).click();
  await expect(dialog.getByText('The file is empty')).toBeVisible();
  const api = await asAdmin();
  const before = await api.call<{ list: { version: string }[] }>(
    'GET',
    '/auth/access/firmware/packages',
  );
  expect(before.result.list.map((p) => p.version)).not.toContain(version);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // The real image: created, uploaded, ready with its SHA-256.
  dialog = await fillNewPackage(page, version);
  await fileInput(page).setInputFiles({
    name: 'lift-fw.bin',
    mimeType: 'application/octet-stream',
    buffer: image,
  });
  await dialog.getByRole('button', { name: 'Create and upload' }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  const row = page.locator('tr', { hasText: version });
  await expect(row.getByTestId('firmware-state-ready')).toBeVisible();
  await expect(row).toContainText(sha256.slice(0, 8));
  const stored = await api.call<{
    list: { version: string; sha256: string | null; size: number | null; state: string }[];
  }>('GET', '/auth/access/firmware/packages');
  expect(stored.result.list.find((p) => p.version === version)).toMatchObject({
    sha256,
    size: image.length,
    state: 'ready',
  });

  // Withdrawn after a confirmation: for good.
  await row.getByRole('button', { name: `Withdraw ${version}` }).click();
  await page.locator('.ant-popover:visible').getByRole('button', { name: 'Withdraw' }).click();
  await expect(row.getByTestId('firmware-state-withdrawn')).toBeVisible();
  const after = await api.call<{ list: { version: string; state: string }[] }>(
    'GET',
    '/auth/access/firmware/packages',
  );
  expect(after.result.list.find((p) => p.version === version)?.state).toBe('withdrawn');
});
