import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IncidentPhoto } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import { incidentKeys } from './incidents-api.ts';

export type { IncidentPhoto };

const base = '/auth/access/incidents/photos';

/** Under the incident's detail key: a live change to the incident fetches its photos again too. */
export const incidentPhotoKeys = {
  list: (incidentId: number) => [...incidentKeys.detail(incidentId), 'photos'] as const,
};

/** The image itself; the browser sends the session cookie with it, so an `<img>` shows it. */
export const incidentPhotoUrl = (photoId: string) =>
  `${base}/file?id=${encodeURIComponent(photoId)}`;

export const incidentPhotosApi = {
  list: (incidentId: number, signal?: AbortSignal) =>
    http.get<{ list: IncidentPhoto[] }>(base, { id: incidentId }, { signal }),
  /** The camera's file as it is: the body is the image (no form encoding on a slow network). */
  add: ({ incidentId, file }: { incidentId: number; file: Blob }) =>
    http.upload<IncidentPhoto>(`${base}/add`, file, { id: incidentId }),
};

export function useIncidentPhotos(incidentId: number) {
  return useQuery({
    queryKey: incidentPhotoKeys.list(incidentId),
    queryFn: ({ signal }) => incidentPhotosApi.list(incidentId, signal),
  });
}

export function useAddIncidentPhoto(incidentId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (file: Blob) => incidentPhotosApi.add({ incidentId, file }),
    onSuccess: () => client.invalidateQueries({ queryKey: incidentPhotoKeys.list(incidentId) }),
  });
}
