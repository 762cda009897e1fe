import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  FirmwareCampaign,
  FirmwareCampaignCreate,
  FirmwareCampaignLift,
  FirmwareCampaignPreview,
  OrgView,
} from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import { campaignIsLive } from '../model/campaign-model.ts';

export type { FirmwareCampaign, FirmwareCampaignLift, FirmwareCampaignPreview };

/** Firmware campaigns (packages/protocol/src/api/firmware-campaigns.ts, docs/firmware.md). */
export const CAMPAIGN_BASE = '/auth/access/firmware/campaigns';
const base = CAMPAIGN_BASE;
/** The organizations, for the operator filter (needs `org.query`). */
const ORGS_PATH = '/auth/access/system/orgs';
/** How often an open campaign that may still change is asked again. */
export const CAMPAIGN_POLL_MS = 5_000;

export type CampaignAction = 'approve' | 'pause' | 'resume' | 'cancel';

export const campaignKeys = {
  all: ['firmware', 'campaigns'] as const,
  list: ['firmware', 'campaigns', 'list'] as const,
  one: (id: string) => ['firmware', 'campaigns', 'one', id] as const,
  lifts: (id: string) => ['firmware', 'campaigns', 'lifts', id] as const,
  orgs: ['firmware', 'campaigns', 'orgs'] as const,
};

export const campaignApi = {
  list: (signal?: AbortSignal) =>
    http.get<{ list: FirmwareCampaign[] }>(base, undefined, { signal }),
  get: (id: string, signal?: AbortSignal) =>
    http.get<FirmwareCampaign>(`${base}/get`, { id }, { signal }),
  lifts: (id: string, signal?: AbortSignal) =>
    http.get<{ list: FirmwareCampaignLift[] }>(`${base}/lifts`, { id }, { signal }),
  preview: (body: FirmwareCampaignCreate) =>
    http.post<FirmwareCampaignPreview>(`${base}/preview`, body),
  create: (body: FirmwareCampaignCreate) => http.post<FirmwareCampaign>(`${base}/create`, body),
  act: (action: CampaignAction, id: string) =>
    http.post<FirmwareCampaign>(`${base}/${action}`, { id }),
  orgs: (signal?: AbortSignal) => http.get<{ list: OrgView[] }>(ORGS_PATH, undefined, { signal }),
};

export function useCampaigns(enabled = true) {
  return useQuery({
    queryKey: campaignKeys.list,
    queryFn: ({ signal }) => campaignApi.list(signal),
    enabled,
  });
}

/**
 * One campaign while its drawer is open; polled while it may still change (the rollout
 * moves on by itself, and another person may approve or pause it). `initial` is its row of
 * the list, shown at once.
 */
export function useCampaign(id: string | null, initial?: FirmwareCampaign) {
  return useQuery({
    queryKey: campaignKeys.one(id ?? ''),
    queryFn: ({ signal }) => campaignApi.get(id ?? '', signal),
    enabled: id !== null,
    initialData: initial,
    // The list's row may be old: fetch at once, show the row meanwhile.
    initialDataUpdatedAt: 0,
    refetchInterval: (query) =>
      campaignIsLive(query.state.data?.state) ? CAMPAIGN_POLL_MS : false,
  });
}

/** The campaign's lifts; polled like the campaign while `live`. */
export function useCampaignLifts(id: string | null, live: boolean) {
  return useQuery({
    queryKey: campaignKeys.lifts(id ?? ''),
    queryFn: ({ signal }) => campaignApi.lifts(id ?? '', signal),
    enabled: id !== null,
    refetchInterval: live ? CAMPAIGN_POLL_MS : false,
  });
}

/** The operator organizations a campaign may be narrowed to; asked only with `org.query`. */
export function useOperatorOrgs(enabled: boolean) {
  return useQuery({
    queryKey: campaignKeys.orgs,
    queryFn: ({ signal }) => campaignApi.orgs(signal),
    enabled,
    staleTime: 60_000,
    select: (data) => data.list.filter((org) => org.kind === 'operator'),
  });
}

/** Refreshes the list, and each open campaign and its lifts, once one changed. */
export function useRefreshCampaigns() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: campaignKeys.all });
}

export function useCampaignAction() {
  const client = useQueryClient();
  const refresh = useRefreshCampaigns();
  return useMutation({
    mutationFn: ({ action, id }: { action: CampaignAction; id: string }) =>
      campaignApi.act(action, id),
    // The answer is the campaign as it is now: the drawer shows it before the refetch.
    onSuccess: (campaign) => client.setQueryData(campaignKeys.one(campaign.id), campaign),
    onSettled: () => refresh(),
  });
}

export function usePreviewCampaign() {
  return useMutation({ mutationFn: (body: FirmwareCampaignCreate) => campaignApi.preview(body) });
}

export function useCreateCampaign() {
  const refresh = useRefreshCampaigns();
  return useMutation({
    mutationFn: (body: FirmwareCampaignCreate) => campaignApi.create(body),
    onSuccess: () => refresh(),
  });
}
