import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { IotInfo, LiftInfo } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { useEnglish, InApp } from '../../../test/render.tsx';
import { liftListItem } from '../../../test/lift-fixtures.ts';
import { IotPanel } from './iot-panel.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(async () => ({ list: [], total: 0 })), post: vi.fn() } };
});

const post = vi.mocked(http.post);
const LIFT = '6f1c2a3b-0000-4000-8000-000000000001';
const STORED: IotInfo = {
  iccid: '89860012345678901234',
  carrier: 'China Mobile',
  apn: 'cmnet',
  module: 'Quectel EC200N',
  signal: -71,
};

function lift(iotInfo: IotInfo, allowed?: LiftInfo['lift']['access']['allowed']): LiftInfo {
  const item = liftListItem({ id: LIFT, alias: 'Station' });
  return {
    lift: {
      ...item,
      access: allowed ? { ...item.access, allowed } : item.access,
      iotInfo,
      configVersion: 0,
      onlineSince: null,
    },
    status: null,
    config: null,
    stats: { onlineMsTotal: 0, onlineMsToday: 0, tripsTotal: 0, tripsToday: 0 },
    alarmDevice: null,
    approvalClasses: [],
  };
}

/** The server: getInfo answers `info`, iot/update answers null. */
function server(info: LiftInfo) {
  post.mockImplementation(async (path: string) => (path.endsWith('/getInfo') ? info : null));
}

const updates = () => post.mock.calls.filter(([path]) => String(path).endsWith('/iot/update'));
const panel = () => screen.getByTestId('panel-iot');

describe('IoT panel', () => {
  beforeAll(useEnglish);
  beforeEach(() => {
    post.mockReset();
  });

  it('shows the SIM card, module and signal with its bars', async () => {
    server(lift(STORED));
    render(<IotPanel liftId={LIFT} />, { wrapper: InApp });
    expect(await within(panel()).findByText('89860012345678901234')).toBeInTheDocument();
    expect(within(panel()).getByText('China Mobile')).toBeInTheDocument();
    expect(within(panel()).getByText('Quectel EC200N')).toBeInTheDocument();
    expect(within(panel()).getByTestId('iot-signal')).toHaveTextContent('-71 dBm · Good');
    expect(within(panel()).getByTestId('iot-signal')).toHaveAttribute('data-bars', '3');
    // Notes were never given.
    expect(within(panel()).getByText('Not reported yet')).toBeInTheDocument();
  });

  it('says nothing was reported yet, and offers no edit without lift.edit', async () => {
    server(lift({}, ['lift.query', 'lift.get']));
    render(<IotPanel liftId={LIFT} />, { wrapper: InApp });
    expect(await within(panel()).findByText('Not reported yet')).toBeInTheDocument();
    expect(within(panel()).queryByTestId('iot-edit')).toBeNull();
  });

  it('shows a load error with a retry', async () => {
    post.mockImplementation(async () => {
      throw new Error('network down');
    });
    render(<IotPanel liftId={LIFT} />, { wrapper: InApp });
    expect(
      await within(panel()).findByTestId('panel-error', undefined, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });

  it('a wrong ICCID or signal shows its message and sends nothing; good values are sent', async () => {
    const user = userEvent.setup();
    server(lift({ carrier: 'China Mobile' }));
    render(<IotPanel liftId={LIFT} />, { wrapper: InApp });
    await user.click(await screen.findByRole('button', { name: 'Edit IoT information' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('ICCID'), '8986-12');
    await user.type(within(dialog).getByLabelText('Signal'), '-200');
    await user.click(within(dialog).getByRole('button', { name: /Save/ }));
    expect(await within(dialog).findByText('The ICCID is not valid')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Signal strength is a whole number of dBm from -150 to 0'),
    ).toBeInTheDocument();
    expect(updates()).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('ICCID'));
    await user.type(within(dialog).getByLabelText('ICCID'), '89860012345678901234');
    await user.clear(within(dialog).getByLabelText('Signal'));
    await user.type(within(dialog).getByLabelText('Signal'), '-85');
    await user.type(within(dialog).getByLabelText('APN'), ' cmnet ');
    await user.click(within(dialog).getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(updates()).toHaveLength(1));
    expect(updates()[0]![1]).toEqual({
      liftId: LIFT,
      iotInfo: {
        iccid: '89860012345678901234',
        carrier: 'China Mobile',
        apn: 'cmnet',
        signal: -85,
      },
    });
    // The lift is read again after the save.
    await waitFor(() =>
      expect(
        post.mock.calls.filter(([path]) => String(path).endsWith('/getInfo')).length,
      ).toBeGreaterThanOrEqual(2),
    );
  });
});
