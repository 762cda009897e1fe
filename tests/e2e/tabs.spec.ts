import { test, expect, ADMIN, signIn } from './fixtures.ts';
import type { Page } from '@playwright/test';

const tab = (page: Page, title: string) =>
  page.getByTestId('multi-tab').getByRole('tab', { name: title });
const tabTitles = (page: Page) =>
  page.getByTestId('multi-tab').locator('.multi-tab-title').allTextContents();

async function contextMenu(page: Page, title: string, item: string) {
  const open = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)');
  await expect(open).toHaveCount(0);
  await tab(page, title).click({ button: 'right' });
  const entry = open.getByRole('menuitem', { name: item });
  await entry.waitFor();
  // The menu is placed after it renders and then opens with a motion; on a starved machine a
  // click at where the entry was measured can land while it still moves, and miss it (the
  // menu then closes with nothing done). The click event goes to the entry itself.
  await entry.dispatchEvent('click');
  await expect(open).toHaveCount(0);
}

const notice = (page: Page, text: string) =>
  page.locator('.ant-message-notice').filter({ hasText: text });

test('multi-tab bar: one tab per route, last tab, close right / left / all, hidden tabs keep their state', async ({
  page,
}) => {
  await signIn(page, ADMIN.username, ADMIN.password);
  await expect(tab(page, 'Workplace')).toBeVisible();

  // The last tab cannot close.
  await page.getByTestId('multi-tab').locator('.ant-tabs-tab-remove').first().click();
  await expect(notice(page, 'This is the last tab, it cannot be closed')).toBeVisible();

  // Every visited route opens a tab; visiting one again focuses it.
  await page.getByTestId('side-menu').getByText('Administration').click();
  await page.getByTestId('side-menu').getByText('Users').click();
  await expect(page).toHaveURL(/\/system\/users$/);
  await page.getByTestId('side-menu').getByText('Roles and permissions').click();
  await page.getByTestId('side-menu').getByText('Organizations').click();
  await expect
    .poll(() => tabTitles(page))
    .toEqual(['Workplace', 'Users', 'Roles and permissions', 'Organizations']);
  await page.getByTestId('side-menu').getByText('Users').click();
  await expect.poll(() => tabTitles(page)).toHaveLength(4);

  // A hidden tab keeps its state: the search text typed on Users survives a trip to Roles.
  await page.getByTestId('user-search').locator('input').fill('kept while hidden');
  await tab(page, 'Roles and permissions').click();
  await expect(page).toHaveURL(/\/system\/roles$/);
  await tab(page, 'Users').click();
  await expect(page.getByTestId('user-search').locator('input')).toHaveValue('kept while hidden');

  // The reload button reloads only the current tab's page.
  await page.getByTestId('reload-tab').click();
  await expect(page.getByTestId('user-search').locator('input')).toHaveValue('');

  // Nothing on the left of the first tab, nothing on the right of the last.
  await contextMenu(page, 'Workplace', 'Close tabs to the left');
  await expect(notice(page, 'No tabs on the left')).toBeVisible();
  await contextMenu(page, 'Organizations', 'Close tabs to the right');
  await expect(notice(page, 'No tabs on the right')).toBeVisible();

  await contextMenu(page, 'Roles and permissions', 'Close tabs to the right');
  await expect.poll(() => tabTitles(page)).toEqual(['Workplace', 'Users', 'Roles and permissions']);
  await contextMenu(page, 'Users', 'Close tabs to the left');
  await expect.poll(() => tabTitles(page)).toEqual(['Users', 'Roles and permissions']);
  await contextMenu(page, 'Users', 'Close this tab');
  await expect.poll(() => tabTitles(page)).toEqual(['Roles and permissions']);
  await expect(page).toHaveURL(/\/system\/roles$/);

  await page
    .getByTestId('side-menu')
    .getByText('Workplace')
    .click()
    .catch(() => undefined);
  await page.goto('/system/orgs');
  await page.getByTestId('side-menu').getByText('Users').click();
  // A page load starts the bar afresh with the loaded route; open two more.
  await expect(tab(page, 'Users')).toBeVisible();
  await contextMenu(page, 'Users', 'Close all tabs');
  await expect.poll(() => tabTitles(page)).toEqual(['Users']);
  await contextMenu(page, 'Users', 'Close all tabs');
  await expect(notice(page, 'This is the last tab, it cannot be closed')).toBeVisible();
});
