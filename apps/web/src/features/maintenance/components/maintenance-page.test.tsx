import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { maintenanceTemplateSetSchema, type MaintenanceTemplate } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import MaintenancePage from './maintenance-page.tsx';
import {
  BASE,
  BATTERY,
  BRAKE,
  englishTexts,
  postedTo,
  renderPage,
  serve,
} from './maintenance-test-kit.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

const TEMPLATE: MaintenanceTemplate = {
  kind: 'inclinedStraightRack',
  orgId: 'org',
  custom: false,
  items: [BRAKE, BATTERY],
  updatedAt: null,
  updatedByName: null,
};

function serveTemplates() {
  serve({
    get: {
      [`${BASE}/due`]: () => ({ list: [] }),
      [`${BASE}/templates`]: () => ({ list: [TEMPLATE] }),
    },
    post: { [`${BASE}/templates/set`]: () => ({ ...TEMPLATE, custom: true }) },
  });
}

describe('checklists per lift kind', () => {
  beforeAll(englishTexts);
  beforeEach(() => {
    vi.mocked(http.get).mockReset();
    vi.mocked(http.post).mockReset();
  });

  it('adds a measured item with unit and limits; untouched items keep their words', async () => {
    const user = userEvent.setup();
    serveTemplates();
    renderPage(<MaintenancePage />, {
      path: '/lift/maintenance',
      route: '/lift/maintenance',
      role: 'operator',
    });
    expect(await screen.findByTestId('maintenance-due-empty')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Checklists' }));
    const card = await screen.findByTestId('template-inclinedStraightRack');
    expect(card).toHaveTextContent('Battery rest voltage');
    expect(card).toHaveTextContent('Measured · 24–28.8 V');
    await user.click(within(card).getByTestId('template-edit-inclinedStraightRack'));

    const dialog = await screen.findByTestId('maintenance-template-modal');
    await user.click(within(dialog).getByTestId('template-remove-0'));
    await user.click(within(dialog).getByTestId('template-add-item'));
    await user.type(within(dialog).getByTestId('template-label-1'), 'Chain elongation');
    await user.click(within(within(dialog).getByTestId('template-item-1')).getByText('Measured'));
    await user.type(within(dialog).getByTestId('template-unit-1'), '%');
    await user.type(within(dialog).getByTestId('template-min-1'), '5');
    await user.type(within(dialog).getByTestId('template-max-1'), '2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('The maximum cannot be below the minimum'),
    ).toBeInTheDocument();
    expect(postedTo(`${BASE}/templates/set`)).toHaveLength(0);

    await user.clear(within(dialog).getByTestId('template-min-1'));
    await user.type(within(dialog).getByTestId('template-min-1'), '0');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(postedTo(`${BASE}/templates/set`)).toHaveLength(1));
    const [body] = postedTo(`${BASE}/templates/set`);
    expect(body).toEqual({
      kind: 'inclinedStraightRack',
      items: [
        {
          id: 'batteryVoltage',
          labelText: 'Battery rest voltage',
          type: 'measured',
          unit: 'V',
          min: 24,
          max: 28.8,
        },
        {
          id: 'item-2',
          labelText: 'Chain elongation',
          type: 'measured',
          unit: '%',
          min: 0,
          max: 2,
        },
      ],
    });
    expect(maintenanceTemplateSetSchema.safeParse(body).success).toBe(true);
  });

  it('shows the checklists without edit buttons to those who may not change them', async () => {
    const user = userEvent.setup();
    serveTemplates();
    renderPage(<MaintenancePage />, {
      path: '/lift/maintenance',
      route: '/lift/maintenance',
      role: 'technician',
    });
    await user.click(await screen.findByRole('tab', { name: 'Checklists' }));
    expect(await screen.findByTestId('template-inclinedStraightRack')).toBeInTheDocument();
    expect(screen.queryByTestId('template-edit-inclinedStraightRack')).toBeNull();
  });
});
