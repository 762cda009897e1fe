import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CommandClass,
  InviteCreated,
  InviteCreateRequest,
  InviteView,
  LiftListItem,
  OrgView,
  RoleView,
  UserAssignRequest,
  UserView,
} from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

const base = '/auth/access/system';

/** The answer of both approval-class routes, and the body of the update (`approvalClassesUpdateSchema`). */
export interface OrgApprovalClasses {
  orgId: string;
  approvalClasses: CommandClass[];
}

export interface UserListQuery {
  page: number;
  pageSize: number;
  keyword?: string;
  /** Only the accounts awaiting an organization. */
  awaiting?: boolean;
}

export const systemApi = {
  users: ({ awaiting, ...query }: UserListQuery, signal?: AbortSignal) =>
    http.get<{ list: UserView[]; total: number }>(
      `${base}/users`,
      { ...query, ...(awaiting ? { awaiting: 'true' } : {}) },
      { signal },
    ),
  /** An account awaiting an organization gets one and a role. */
  assignUser: (body: UserAssignRequest) => http.post<unknown>(`${base}/users/assign`, body),
  invites: (signal?: AbortSignal) =>
    http.get<{ list: InviteView[] }>(`${base}/invites`, undefined, { signal }),
  /** The answer holds the whole code: shown this once. */
  createInvite: (body: InviteCreateRequest) =>
    http.post<InviteCreated>(`${base}/invites/create`, body),
  revokeInvite: (id: string) => http.post<unknown>(`${base}/invites/revoke`, { id }),
  userAction: (
    action: 'create' | 'update' | 'freeze' | 'thaw' | 'reset-password' | 'end-sessions',
    body: object,
  ) => http.post<unknown>(`${base}/users/${action}`, body),
  roles: (signal?: AbortSignal) =>
    http.get<{ list: RoleView[] }>(`${base}/roles`, undefined, { signal }),
  roleAction: (action: 'create' | 'update' | 'delete', body: object) =>
    http.post<unknown>(`${base}/roles/${action}`, body),
  orgs: (signal?: AbortSignal) =>
    http.get<{ list: OrgView[] }>(`${base}/orgs`, undefined, { signal }),
  orgAction: (action: 'create' | 'update' | 'delete' | 'assign-lifts', body: object) =>
    http.post<unknown>(`${base}/orgs/${action}`, body),
  orgLifts: (orgId: string, signal?: AbortSignal) =>
    http.get<{ list: Pick<LiftListItem, 'id' | 'deviceNo' | 'alias' | 'kind'>[] }>(
      `${base}/orgs/lifts`,
      { orgId },
      { signal },
    ),
  /** The command classes under two-person approval in an organization (docs/remote-control.md). */
  approvalClasses: (orgId: string, signal?: AbortSignal) =>
    http.get<OrgApprovalClasses>(`${base}/orgs/approval-classes`, { orgId }, { signal }),
  updateApprovalClasses: (body: OrgApprovalClasses) =>
    http.post<OrgApprovalClasses>(`${base}/orgs/approval-classes/update`, body),
  searchLifts: (keyword: string, signal?: AbortSignal) =>
    http.get<{ list: LiftListItem[]; total: number }>(
      '/auth/access/lift/get',
      { keyword, pageSize: 50 },
      { signal },
    ),
};

export const systemKeys = {
  users: ['system', 'users'] as const,
  roles: ['system', 'roles'] as const,
  orgs: ['system', 'orgs'] as const,
  invites: ['system', 'invites'] as const,
  orgLifts: (orgId: string) => ['system', 'orgs', orgId, 'lifts'] as const,
  approvalClasses: (orgId: string) => ['system', 'orgs', orgId, 'approval-classes'] as const,
};

export function useUsers(query: UserListQuery) {
  return useQuery({
    queryKey: [...systemKeys.users, query],
    queryFn: ({ signal }) => systemApi.users(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useRoles(enabled = true) {
  return useQuery({
    queryKey: systemKeys.roles,
    queryFn: ({ signal }) => systemApi.roles(signal),
    enabled,
  });
}

export function useOrgs(enabled = true) {
  return useQuery({
    queryKey: systemKeys.orgs,
    queryFn: ({ signal }) => systemApi.orgs(signal),
    enabled,
  });
}

export function useInvites(enabled = true) {
  return useQuery({
    queryKey: systemKeys.invites,
    queryFn: ({ signal }) => systemApi.invites(signal),
    enabled,
  });
}

export function useOrgLifts(orgId: string | null) {
  return useQuery({
    queryKey: systemKeys.orgLifts(orgId ?? ''),
    queryFn: ({ signal }) => systemApi.orgLifts(orgId ?? '', signal),
    enabled: orgId !== null,
  });
}

export function useOrgApprovalClasses(orgId: string | null) {
  return useQuery({
    queryKey: systemKeys.approvalClasses(orgId ?? ''),
    queryFn: ({ signal }) => systemApi.approvalClasses(orgId ?? '', signal),
    enabled: orgId !== null,
  });
}

export function useUpdateApprovalClasses() {
  return useSystemMutation(systemApi.updateApprovalClasses);
}

export function useLiftSearch(keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: ['system', 'lift-search', keyword],
    queryFn: ({ signal }) => systemApi.searchLifts(keyword, signal),
    enabled,
    retry: false,
  });
}

/** A change to users, roles or organizations refreshes every administration list. */
export function useSystemMutation<TBody>(call: (body: TBody) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['system'] }),
  });
}
