import { useEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CONTROL_LEASE_RENEW_MS, type LeaseState } from '@liftlink/protocol';
import { ApiError } from '../../../lib/http.ts';
import { useLiftLive } from '../../../lib/live/use-live.ts';
import { controlApi, controlKeys, useLeaseState } from '../api/control-api.ts';
import { controlView, leaseNoticeOf, type ControlView, type LeaseNotice } from '../model/lease.ts';
import { useNow } from './use-now.ts';
import { useOnReconnect } from './use-on-reconnect.ts';

export interface ControlLease extends ControlView {
  loading: boolean;
  take: (takeOver: boolean) => Promise<void>;
  release: () => Promise<void>;
  busy: boolean;
  /** A refused take or release (`lease.held`, `lease.localControl`), until the next try. */
  error: unknown;
  notice: LeaseNotice | null;
  closeNotice: () => void;
  now: number;
}

interface Own {
  liftId: string;
  epoch: number;
}

/**
 * The lift's control lease for this page (docs/remote-control.md, "The control lease"): who
 * holds it, live; take, take over and release. A lease this page took is renewed every
 * CONTROL_LEASE_RENEW_MS and given back when the page closes or the user leaves the lift
 * (best effort: a keepalive request). A lease of the same user taken in another window is
 * left to that window.
 */
export function useControlLease(liftId: string, userId: string | null): ControlLease {
  const client = useQueryClient();
  const query = useLeaseState(liftId, userId);
  const [own, setOwn] = useState<Own | null>(null);
  const ownRef = useRef<Own | null>(null);
  useEffect(() => {
    ownRef.current = own;
  }, [own]);
  const [notice, setNotice] = useState<LeaseNotice | null>(null);
  const [error, setError] = useState<unknown>(null);

  const store = (state: LeaseState) => {
    client.setQueryData(controlKeys.lease(liftId), state);
    const mine = state.lease && state.lease.holderId === userId;
    setOwn((current) =>
      mine && current?.liftId === liftId && current.epoch === state.lease!.epoch ? current : null,
    );
  };

  useLiftLive(liftId, (message) => {
    if (message.type !== 'lease') return;
    const state = { lease: message.lease, localUntil: message.localUntil };
    client.setQueryData(controlKeys.lease(liftId), state);
    if (ownRef.current && message.lease?.epoch !== ownRef.current.epoch) setOwn(null);
    const next = leaseNoticeOf(message, userId);
    if (next) setNotice(next);
  });

  // After a lost connection the lease may have changed meanwhile.
  useOnReconnect(() => void client.invalidateQueries({ queryKey: controlKeys.lease(liftId) }));

  const localUntil = query.data?.localUntil ? Date.parse(query.data.localUntil) : null;
  const now = useNow((ticking) => localUntil !== null && localUntil > ticking, 1000);
  const view = controlView(query.data, userId, now);

  const takeMutation = useMutation({
    mutationFn: (takeOver: boolean) => controlApi.take(liftId, takeOver),
    onMutate: () => setError(null),
    onSuccess: (state) => {
      client.setQueryData(controlKeys.lease(liftId), state);
      if (state.lease && state.lease.holderId === userId) {
        setOwn({ liftId, epoch: state.lease.epoch });
        setNotice(null);
      }
    },
    onError: (cause) => {
      setError(cause);
      void client.invalidateQueries({ queryKey: controlKeys.lease(liftId) });
    },
  });

  const releaseMutation = useMutation({
    mutationFn: (epoch: number) => controlApi.release(liftId, epoch),
    onMutate: () => setError(null),
    onSuccess: store,
    onError: (cause) => {
      setError(cause);
      setOwn(null);
      void client.invalidateQueries({ queryKey: controlKeys.lease(liftId) });
    },
  });

  // Renewal while this page holds the lease; a refused renewal means it is gone.
  const ownEpoch = own?.liftId === liftId && view.lease?.epoch === own.epoch ? own.epoch : null;
  useEffect(() => {
    if (ownEpoch === null) return;
    const timer = window.setInterval(() => {
      controlApi.renew(liftId, ownEpoch).then(
        (state) => client.setQueryData(controlKeys.lease(liftId), state),
        (cause: unknown) => {
          // A network failure may pass before the lease runs out; a refusal will not.
          if (cause instanceof ApiError && cause.status >= 400 && cause.status < 500) {
            setOwn(null);
            void client.invalidateQueries({ queryKey: controlKeys.lease(liftId) });
          }
        },
      );
    }, CONTROL_LEASE_RENEW_MS);
    return () => window.clearInterval(timer);
  }, [ownEpoch, liftId, client]);

  // Leaving the lift (another lift, another page) or closing the page gives the lease back.
  useEffect(() => {
    const giveBack = () => {
      const held = ownRef.current;
      if (!held || held.liftId !== liftId) return;
      ownRef.current = null;
      void controlApi.release(held.liftId, held.epoch, true).catch(() => undefined);
    };
    window.addEventListener('pagehide', giveBack);
    return () => {
      window.removeEventListener('pagehide', giveBack);
      giveBack();
    };
  }, [liftId]);

  return {
    ...view,
    loading: query.isLoading,
    take: async (takeOver) => {
      await takeMutation.mutateAsync(takeOver).catch(() => undefined);
    },
    release: async () => {
      if (view.lease) await releaseMutation.mutateAsync(view.lease.epoch).catch(() => undefined);
    },
    busy: takeMutation.isPending || releaseMutation.isPending,
    error,
    notice,
    closeNotice: () => setNotice(null),
    now,
  };
}
