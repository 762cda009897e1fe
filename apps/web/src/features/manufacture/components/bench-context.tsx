import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Handshake, ManufactureLift, SERIAL_LOG_STEPS, SerialLink } from '@liftlink/protocol';
import { manufactureApi } from '../api/manufacture-api.ts';
import { benchProblem, type BenchProblem } from '../model/errors.ts';
import { useSerialConnection, type SerialConnection } from '../serial/use-serial-connection.ts';

/** Thrown when an action needs the controller and none is connected. */
class NoDevice extends Error {}

export interface Bench {
  serial: SerialConnection;
  handshake: Handshake | null;
  lift: ManufactureLift | null;
  setLift: (lift: ManufactureLift | null) => void;
  /** A problem that stays on screen (device does not match, with the refresh action). */
  problem: BenchProblem | null;
  clearProblem: () => void;
  /** Reads the handshake again and looks the controller up in the cloud. */
  refresh: () => Promise<Handshake | null>;
  /** The open link, or a "no device selected" notice. */
  requireLink: () => SerialLink;
  /** Runs a step: its failure becomes a message (or the lasting problem); resolves undefined then. */
  run: <T>(step: () => Promise<T>) => Promise<T | undefined>;
  /** Tells the server what was done over the cable (audit log). */
  audit: (
    step: (typeof SERIAL_LOG_STEPS)[number],
    result: 'ok' | 'failed',
    detail?: Record<string, unknown>,
  ) => void;
}

const BenchContext = createContext<Bench | null>(null);

export function useBench(): Bench {
  const bench = useContext(BenchContext);
  if (!bench) throw new Error('useBench outside the bench page');
  return bench;
}

/** The bench's shared state: the serial connection, the controller on it, its cloud record. */
export function BenchProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [handshake, setHandshake] = useState<Handshake | null>(null);
  const [lift, setLift] = useState<ManufactureLift | null>(null);
  const [problem, setProblem] = useState<BenchProblem | null>(null);
  const serial = useSerialConnection(() => {
    setHandshake(null);
    void message.warning(t('manufacture.serial.lost'));
  });

  const { currentLink } = serial;
  const requireLink = useCallback((): SerialLink => {
    const link = currentLink();
    if (!link) throw new NoDevice();
    return link;
  }, [currentLink]);

  const run = useCallback(
    async <T,>(step: () => Promise<T>): Promise<T | undefined> => {
      try {
        const result = await step();
        setProblem(null);
        return result;
      } catch (error) {
        if (error instanceof NoDevice) {
          void message.warning(t('manufacture.noDevice'));
          return undefined;
        }
        const found = benchProblem(error);
        if (found?.refresh) setProblem(found);
        else if (found) void message.error(found.text);
        return undefined;
      }
    },
    [message, t],
  );

  const refresh = useCallback(async () => {
    const next = await requireLink().handshake();
    setHandshake(next);
    const found = await manufactureApi.lookup({
      controllerSerial: next.controllerSerial,
      ...(next.deviceNo ? { deviceNo: next.deviceNo } : {}),
    });
    setLift(found.lift);
    setProblem(null);
    return next;
  }, [requireLink]);

  const audit = useCallback<Bench['audit']>(
    (step, result, detail) => {
      if (!handshake) return;
      void manufactureApi
        .serialLog({
          step,
          result,
          controllerSerial: handshake.controllerSerial,
          deviceNo: handshake.deviceNo,
          ...(detail ? { detail } : {}),
        })
        .catch(() => undefined);
    },
    [handshake],
  );

  const value = useMemo<Bench>(
    () => ({
      serial,
      handshake,
      lift,
      setLift,
      problem,
      clearProblem: () => setProblem(null),
      refresh,
      requireLink,
      run,
      audit,
    }),
    [serial, handshake, lift, problem, refresh, requireLink, run, audit],
  );
  return <BenchContext.Provider value={value}>{children}</BenchContext.Provider>;
}

/** The bench plus a busy marker: `step(name, action)` runs an action through `bench.run` and marks it busy meanwhile. */
export function useBenchStep() {
  const bench = useBench();
  const [busy, setBusy] = useState<string | null>(null);
  const step = async (name: string, action: () => Promise<unknown>): Promise<void> => {
    setBusy(name);
    try {
      await bench.run(action);
    } finally {
      setBusy(null);
    }
  };
  return { bench, busy, step };
}
