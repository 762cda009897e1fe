import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettings, SessionView } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import { userInfoQuery } from '../../../lib/session.ts';

const base = '/auth/access/account';

export const accountApi = {
  changePassword: (body: { oldPassword: string; password: string }) =>
    http.post<unknown>('/auth/access/pwd/update', body, { quiet: true }),
  updateProfile: (body: { name?: string; avatar?: string; language?: string }) =>
    http.post<unknown>(`${base}/profile/update`, body),
  sessions: (signal?: AbortSignal) =>
    http.get<{ list: SessionView[] }>(`${base}/sessions`, undefined, { signal }),
  revokeSession: (id: string) => http.post<unknown>(`${base}/sessions/revoke`, { id }),
  bindEmail: (email: string) => http.post<unknown>(`${base}/bind/email`, { email }),
  bindMobile: (body: { mobile: string; captcha: string }) =>
    http.post<unknown>(`${base}/bind/mobile`, body),
  notifications: (signal?: AbortSignal) =>
    http.get<NotificationSettings>(`${base}/notifications`, undefined, { signal }),
  updateNotifications: (body: NotificationSettings) =>
    http.post<unknown>(`${base}/notifications/update`, body),
  /** Joins the invite code's organization; errors are shown by the form (quiet). */
  redeemInvite: (code: string) =>
    http.post<{ organization: { id: string; name: string }; role: { id: string; name: string } }>(
      `${base}/invite/redeem`,
      { code },
      { quiet: true },
    ),
};

/** A change to the profile shows in the header and pages at once. */
function useRefreshInfo() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: userInfoQuery.queryKey });
}

export function useUpdateProfile() {
  const refresh = useRefreshInfo();
  return useMutation({ mutationFn: accountApi.updateProfile, onSuccess: refresh });
}

export function useSessions() {
  return useQuery({
    queryKey: ['account', 'sessions'],
    queryFn: ({ signal }) => accountApi.sessions(signal),
  });
}

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: accountApi.revokeSession,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account', 'sessions'] }),
  });
}

export function useBindEmail() {
  const refresh = useRefreshInfo();
  return useMutation({ mutationFn: accountApi.bindEmail, onSuccess: refresh });
}

export function useBindMobile() {
  const refresh = useRefreshInfo();
  return useMutation({ mutationFn: accountApi.bindMobile, onSuccess: refresh });
}

export function useNotificationSettings() {
  return useQuery({
    queryKey: ['account', 'notifications'],
    queryFn: ({ signal }) => accountApi.notifications(signal),
  });
}

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: accountApi.updateNotifications,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['account', 'notifications'] }),
  });
}

/** Redeems an invite code; the new organization, role and menu follow at once. */
export function useRedeemInvite() {
  const refresh = useRefreshInfo();
  return useMutation({ mutationFn: accountApi.redeemInvite, onSuccess: refresh });
}
