import { useEffect, useRef } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { IncidentView } from '@liftlink/protocol';
import { useFleetLive, useLiftLive } from '../../../lib/live/use-live.ts';
import { incidentKeys, patchIncident, type IncidentPage } from '../api/incidents-api.ts';

/** How long a burst of live changes is gathered before the lists are fetched again. */
const REFETCH_AFTER_MS = 1_000;

/**
 * Whether a change may move the incident in or out of a list or to another place in it: a
 * new incident, another state, priority or assignee. A repeat only counts up (each fault
 * message of a flapping sensor is one): the row changes in place, nothing is fetched.
 */
function changesLists(client: QueryClient, incident: IncidentView): boolean {
  const known = client
    .getQueriesData<IncidentPage>({ queryKey: incidentKeys.lists })
    .flatMap(([, page]) => page?.list ?? [])
    .find((i) => i.id === incident.id);
  return (
    !known ||
    known.state !== incident.state ||
    known.priority !== incident.priority ||
    known.assigneeId !== incident.assigneeId
  );
}

/**
 * The incidents list follows the fleet's live `incident` messages: a known row changes in
 * place at once; a change that may add, drop or reorder rows fetches the lists again (once
 * per burst), so a new incident appears and the order and filters stay right.
 */
export function useIncidentsLive(): void {
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const refetchLists = () => void client.invalidateQueries({ queryKey: incidentKeys.lists });
  useFleetLive(
    (message) => {
      if (message.type !== 'incident') return;
      const refetch = changesLists(client, message.incident);
      patchIncident(client, message.incident);
      if (!refetch) return;
      timer.current ??= setTimeout(() => {
        timer.current = null;
        refetchLists();
      }, REFETCH_AFTER_MS);
    },
    { onSubscribed: refetchLists },
  );
}

/** The detail page follows its lift's live messages about this incident (steps, notes, repeats). */
export function useIncidentLive(liftId: string | undefined, incidentId: number): void {
  const client = useQueryClient();
  useLiftLive(liftId, (message) => {
    if (message.type !== 'incident' || message.incident.id !== incidentId) return;
    patchIncident(client, message.incident);
    void client.invalidateQueries({ queryKey: incidentKeys.detail(incidentId) });
  });
}
