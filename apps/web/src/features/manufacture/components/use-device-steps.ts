import { useState } from 'react';
import { App, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Handshake, NewIotCredentials } from '@liftlink/protocol';
import { manufactureApi } from '../api/manufacture-api.ts';
import {
  assignDeviceNo,
  issueCredentials,
  missingDevice,
  resetCredentials,
  updateIotInfo,
  writeCredentials,
} from '../model/device-steps.ts';
import { useBenchStep } from './bench-context.tsx';

/** The device panel's steps (model/device-steps.ts) with their busy marks, messages and the secret shown once. */
export function useDeviceSteps() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { bench, busy, step } = useBenchStep();
  const [form] = Form.useForm<{ deviceNo: string }>();
  const [iot, setIot] = useState<{ creds: NewIotCredentials; written: boolean } | null>(null);

  const withDevice = (needsNumber: boolean): Handshake | null => {
    const missing = missingDevice(bench, needsNumber);
    if (missing) {
      void message.warning(t(missing));
      return null;
    }
    return bench.handshake;
  };

  const assign = async () => {
    const device = withDevice(false);
    if (!device) return;
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    await step('assign', async () => {
      await assignDeviceNo(bench, manufactureApi, device, values.deviceNo);
      form.resetFields();
      void message.success(t('manufacture.device.assigned', { deviceNo: values.deviceNo }));
    });
  };

  const updateInfo = async () => {
    if (!withDevice(true)) return;
    await step('update', async () => {
      await updateIotInfo(bench, manufactureApi);
      void message.success(t('manufacture.device.infoUpdated'));
    });
  };

  const newCredentials = async () => {
    const device = withDevice(true);
    if (!device) return;
    await step('iot', () =>
      issueCredentials(bench, manufactureApi, device.deviceNo!, (creds, written) =>
        setIot({ creds, written }),
      ),
    );
  };

  const writeAgain = () => {
    if (!iot) return;
    const { creds } = iot;
    void writeCredentials(bench, manufactureApi, creds, (written) => setIot({ creds, written }));
  };

  const reset = () => {
    const { lift } = bench;
    if (!lift) return;
    modal.confirm({
      title: t('manufacture.iot.resetConfirm', { deviceNo: lift.deviceNo ?? '' }),
      content: t('manufacture.iot.resetText'),
      okButtonProps: { danger: true },
      onOk: () =>
        step('reset', async () => {
          await resetCredentials(bench, manufactureApi, lift);
          void message.success(t('manufacture.iot.resetDone'));
        }),
    });
  };

  const refresh = () => void step('refresh', bench.refresh);
  /** After a problem: read the controller again (and the bridge's ports). */
  const refreshList = () =>
    void step('refresh', async () =>
      bench.serial.mode === 'bridge'
        ? Promise.all([bench.refresh(), bench.serial.bridge.refreshPorts()])
        : bench.refresh(),
    );

  return {
    bench,
    busy,
    form,
    iot,
    closeSecret: () => setIot(null),
    assign,
    updateInfo,
    newCredentials,
    writeAgain,
    reset,
    refresh,
    refreshList,
  };
}
