import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { permissionsOf } from '../../../lib/access.tsx';
import type { Session } from '../../../lib/session.ts';
import { renderAt, useEnglish, userInfo } from '../../../test/render.tsx';
import ManufactureDevicePage from './manufacture-device-page.tsx';

function sessionOf(role: 'manufacturerEngineer' | 'viewer'): Session {
  const info = userInfo(role);
  return { info, permissions: permissionsOf(info), routes: info.routes };
}

const fetchMock = vi.fn<typeof fetch>();
/** No bridge listens: every WebSocket fails to connect. */
class NoBridge {
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  readyState = 0;
  constructor() {
    setTimeout(() => {
      this.readyState = 3;
      this.onerror?.();
      this.onclose?.();
    }, 0);
  }
  close() {}
}

beforeAll(useEnglish);
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('WebSocket', NoBridge);
  fetchMock.mockImplementation(() =>
    Promise.resolve(
      new Response(JSON.stringify({ success: true, code: 'ok', msg: 'OK', result: { list: [] } })),
    ),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

const messages = () =>
  Array.from(document.querySelectorAll('.ant-message-notice')).map((n) => n.textContent);

describe('factory bench page (spec sections 2 and 8)', () => {
  it('says no device is selected before a port is open', async () => {
    renderAt(<ManufactureDevicePage />, { session: sessionOf('manufacturerEngineer') });
    await userEvent.click(
      await screen.findByRole('button', { name: /Refresh handshake information/ }),
    );
    await waitFor(() => expect(messages()).toContain('No device selected'));
    expect(screen.getByText('Serial port closed')).toBeInTheDocument();
  });

  it('asks to register the plugin first, and cannot open a port while the plugin is not running', async () => {
    renderAt(<ManufactureDevicePage />, { session: sessionOf('manufacturerEngineer') });
    await screen.findByText('Serial port closed');
    const path = document.querySelector<HTMLInputElement>(
      '[data-testid="serial-path"] input, input[data-testid="serial-path"]',
    )!;
    await userEvent.type(path, '/dev/ttyUSB0');
    await userEvent.click(screen.getByRole('button', { name: /Open/ }));
    await waitFor(() => expect(messages()).toContain('Register the plugin first'));

    localStorage.setItem('liftlink.bridge.token', 't'.repeat(43));
    await userEvent.click(screen.getByRole('button', { name: /Open/ }));
    await waitFor(() =>
      expect(messages()).toContain('The serial port cannot be opened, re-insert the serial device'),
    );
  });

  it('shows the provisioning controls only to a role with the manufacture actions', async () => {
    renderAt(<ManufactureDevicePage />, { session: sessionOf('viewer') });
    await screen.findByText('Serial port');
    expect(screen.queryByRole('button', { name: /Assign/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /Get new IoT credentials/ })).toBeNull();
  });
});
