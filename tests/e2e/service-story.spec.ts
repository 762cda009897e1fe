import { startFleet, type FleetHandle } from '../../apps/simulator/src/fleet.ts';
import { signIn } from './fixtures.ts';
import { createMakerUser, expect, LiftApi, registerBenchLift, test } from './lift-fixture.ts';

/**
 * Issue 16's story, end to end on a real server with a simulated lift (docs/service.md): a
 * fault opens one incident and its repeats attach to it; nobody acknowledges, so it goes on
 * to the next person on call; a technician on a phone-sized page acknowledges it, records
 * a maintenance visit with the lift's checklist, and the visit closes the incident; the
 * lift's logbook shows every step and verifies.
 */

interface IncidentNotice {
  kind: 'escalated' | 'taken';
  incidentId: number;
  actorName: string | null;
}

interface Incident {
  id: number;
  state: string;
  repeats: number;
}


interface ChecklistItem {
  id: string;
  type: 'passFail' | 'measured';
  min: number | null;
  max: number | null;
}

/** A value a measured item accepts: between its limits (either may be absent). */
function withinLimits(item: ChecklistItem): number {
  if (item.min !== null && item.max !== null) return (item.min + item.max) / 2;
  if (item.min !== null) return item.min + 1;
  if (item.max !== null) return item.max - 1;
  return 1;
}

/** A lift registered at the bench and given credentials, run by a simulated controller in this test. */
async function simulatedLift(admin: LiftApi): Promise<{ liftId: string; deviceNo: string; fleet: FleetHandle }> {
  const { liftId, deviceNo, secret, mqttUrl } = await registerBenchLift(admin, 'SVC');
  const fleet = await startFleet({
    mqttUrl,
    lifts: [{ deviceNo, secret, kind: 'inclinedStraightRack', floors: 2 }],
    tickMs: 100,
    log: () => undefined,
  });
  return { liftId, deviceNo, fleet };
}

async function activeIncidents(api: LiftApi, liftId: string): Promise<Incident[]> {
  const res = await api.call<{ list: Incident[] }>(
    'GET',
    `/auth/access/incidents?state=active&liftId=${liftId}`,
  );
  expect(res.status, res.code).toBe(200);
  return res.result.list;
}


// The technician's page: a phone held in one hand.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('a fault becomes one incident, escalates, is taken on a phone, closed by a visit, and the logbook verifies', async ({
  page: phone,
  liftServer,
}) => {
  test.setTimeout(420_000);
  const { admin, url } = liftServer;
  const dispatcher = await createMakerUser(admin, 'operator', 'Dmitri Dispatcher');
  const technician = await createMakerUser(admin, 'technician', 'Tanya Technician');
  // On call: the dispatcher first, the technician next, one minute each to acknowledge.
  const policy = await admin.call('POST', '/auth/access/system/orgs/escalation/update', {
    orgId: technician.orgId,
    onCall: [dispatcher.id, technician.id],
    managerId: null,
    ackMinutes: 1,
  });
  expect(policy.status, policy.code).toBe(200);
  const dispatcherApi = await LiftApi.on(url, dispatcher.username, dispatcher.password);
  const technicianApi = await LiftApi.on(url, technician.username, technician.password);
  const notices = async (api: LiftApi) =>
    (await api.call<{ list: IncidentNotice[] }>('GET', '/auth/access/notifications/incidents')).result.list;
  const { liftId, deviceNo, fleet } = await simulatedLift(admin);
  try {
    const machine = () => fleet.lift(deviceNo)!.machine;
    await admin.waitForStatus(liftId, (info) => info.lift.online === true, 60_000);

    // A drive fault opens one incident; the same fault again attaches to it as a repeat.
    machine().injectFault('EC');
    await expect
      .poll(async () => (await activeIncidents(admin, liftId)).length, { timeout: 30_000 })
      .toBe(1);
    const faults = async () => (await admin.info(liftId)).status?.faults ?? [];
    await expect.poll(faults, { timeout: 30_000 }).toContain('EC');
    // Reset on site; the same fault comes back: a repeat of the same incident, no new one.
    machine().clearFaults();
    await expect
      .poll(async () => (await faults()).length, { timeout: 30_000 })
      .toBe(0);
    machine().injectFault('EC');
    await expect
      .poll(async () => (await activeIncidents(admin, liftId))[0]?.repeats ?? 0, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(1);
    const [incident] = await activeIncidents(admin, liftId);
    expect(await activeIncidents(admin, liftId)).toHaveLength(1);
    expect(incident!.state).toBe('open');

    // The first on call is asked at once; nobody acknowledges, so a minute later the
    // technician is asked, in the app (and by mail, tested in escalation.test.ts).
    const askedNow = async (api: LiftApi) =>
      (await notices(api)).some((n) => n.kind === 'escalated' && n.incidentId === incident!.id);
    await expect.poll(() => askedNow(dispatcherApi), { timeout: 30_000 }).toBe(true);
    expect(await askedNow(technicianApi)).toBe(false);
    await signIn(phone, technician.username, technician.password);
    await phone.waitForURL((u) => !u.pathname.startsWith('/user/'));
    await expect.poll(() => askedNow(technicianApi), { timeout: 120_000 }).toBe(true);
    await expect(phone.getByTestId('notification-count')).toBeVisible({ timeout: 30_000 });

    // On the phone the technician opens it from the bell, sees the repeats and acknowledges it.
    await phone.getByTestId('notification-bell').click();
    await phone.getByTestId('notification-incident').filter({ hasText: deviceNo }).first().click();
    await phone.waitForURL(new RegExp(`/lift/incidents/${incident!.id}$`));
    // A step forward needs no confirmation: one tap.
    await phone.getByTestId('incident-step-acknowledged').click();
    await expect(phone.getByTestId('incident-state')).toHaveAttribute('data-state', 'acknowledged');
    // The dispatcher asked before is told who took it, by name.
    await expect
      .poll(
        async () =>
          (await notices(dispatcherApi)).find((n) => n.kind === 'taken' && n.incidentId === incident!.id)
            ?.actorName,
        { timeout: 30_000 },
      )
      .toBe('Tanya Technician');
    await phone.goto('/lift/incidents');
    const card = phone.getByTestId('incident-card').filter({ hasText: deviceNo });
    await expect(card.getByTestId('incident-repeats')).toBeVisible({ timeout: 30_000 });

    // On site, the technician records a maintenance visit from the lift page: the lift's
    // checklist (each item passed, each measured value within its limits), findings, and the
    // incident it resolved, which the visit closes.
    const maintenance = await technicianApi.call<{ checklist: ChecklistItem[] }>(
      'GET',
      `/auth/access/lift/maintenance?liftId=${liftId}`,
    );
    expect(maintenance.status, maintenance.code).toBe(200);
    await phone.goto(`/lift/${liftId}`);
    await phone.locator('.lift-detail-tabs [data-node-key="maintenance"]').click();
    await phone.getByTestId('maintenance-record-visit').click();
    await phone.waitForURL(new RegExp(`/lift/maintenance/visit/${liftId}$`));
    for (const item of maintenance.result.checklist) {
      const row = phone.getByTestId(`visit-item-${item.id}`);
      if (item.type === 'passFail') await row.getByText('Pass', { exact: true }).click();
      else await phone.getByTestId(`visit-value-${item.id}`).fill(String(withinLimits(item)));
      await expect(row).toHaveAttribute('data-verdict', 'pass');
    }
    await phone.getByTestId('visit-findings-input').fill('Drive contactor replaced; ran 10 trips');
    await phone.getByTestId(`visit-incident-${incident!.id}`).click();
    await phone.getByTestId('visit-root-cause').click();
    await phone.locator('.ant-select-item-option').first().click();
    await phone.getByTestId('visit-submit').click();
    await expect(phone.getByTestId('visit-recorded')).toBeVisible({ timeout: 30_000 });
    await expect
      .poll(async () => (await activeIncidents(admin, liftId)).length, { timeout: 15_000 })
      .toBe(0);
    const closed = await admin.call<{ incident: { state: string } }>(
      'GET',
      `/auth/access/incidents/get?id=${incident!.id}`,
    );
    expect(closed.result.incident.state).toBe('closed');

    // The lift's logbook shows the incident's steps and the visit, and verifies.
    await phone.goto(`/lift/${liftId}`);
    await phone.locator('.lift-detail-tabs [data-node-key="logbook"]').click();
    const logbook = phone.getByTestId('logbook');
    await expect(
      logbook.getByTestId('logbook-summary').filter({ hasText: `#${incident!.id}` }).first(),
    ).toBeVisible();
    await expect(logbook.getByTestId('logbook-kind').filter({ hasText: /visit/i }).first()).toBeVisible();
    await logbook.getByTestId('logbook-verify').click();
    await expect(logbook.getByTestId('logbook-verify-result')).toHaveAttribute('data-ok', 'true');
  } finally {
    await fleet.stop();
  }
});
