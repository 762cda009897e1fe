import { useEffect, useRef, useState } from 'react';
import { Alert, App, Button, Modal, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatPairingCode, type PairingCode } from '@liftlink/protocol';
import { errorMessage } from '../../../lib/form-errors.ts';
import { manufactureApi } from '../api/manufacture-api.ts';
import { BridgeError } from '../serial/bridge-client.ts';
import { useBench } from './bench-context.tsx';

const POLL_MS = 2_000;

/** One code: asks the server for it, shows it, and offers it to the bridge until it is accepted. */
function PairingBody({ onPaired, onNewCode }: { onPaired: () => void; onNewCode: () => void }) {
  const { t } = useTranslation();
  const { pairWithCode } = useBench().serial.bridge;
  const [code, setCode] = useState<PairingCode | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [state, setState] = useState<'notRunning' | 'waiting' | 'expired'>('waiting');
  const paired = useRef(onPaired);
  useEffect(() => {
    paired.current = onPaired;
  });

  useEffect(() => {
    let cancelled = false;
    manufactureApi.pairCode().then(
      (next) => !cancelled && setCode(next),
      (error: unknown) => !cancelled && setFailure(errorMessage(error) ?? t('errors.unknown')),
    );
    return () => {
      cancelled = true;
    };
  }, [t]);

  useEffect(() => {
    if (!code) return;
    let cancelled = false;
    let timer: number | undefined;
    const attempt = async () => {
      if (Date.parse(code.expiresAt) <= Date.now()) return setState('expired');
      try {
        await pairWithCode(code.code);
        if (!cancelled) paired.current();
      } catch (error) {
        if (cancelled) return;
        setState(
          error instanceof BridgeError && error.code === 'unreachable' ? 'notRunning' : 'waiting',
        );
        timer = window.setTimeout(() => void attempt(), POLL_MS);
      }
    };
    void attempt();
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, [code, pairWithCode]);

  if (failure) return <Alert type="error" showIcon message={failure} />;
  if (!code) return <Spin />;
  const command = `npm start -- --server ${window.location.origin} --pair ${formatPairingCode(code.code)}`;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Paragraph>{t('manufacture.bridge.pairIntro')}</Typography.Paragraph>
      <div className="bench-pair-code" data-testid="pairing-code">
        {formatPairingCode(code.code)}
      </div>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('manufacture.bridge.pairCommand')}
      </Typography.Paragraph>
      <Typography.Text code copyable className="bench-command">
        {command}
      </Typography.Text>
      {state === 'expired' ? (
        <Alert
          type="warning"
          showIcon
          message={t('manufacture.bridge.codeExpired')}
          action={
            <Button size="small" onClick={onNewCode}>
              {t('manufacture.bridge.newCode')}
            </Button>
          }
        />
      ) : (
        <Alert
          type={state === 'notRunning' ? 'warning' : 'info'}
          showIcon
          icon={<Spin size="small" />}
          message={
            state === 'notRunning'
              ? t('manufacture.bridge.notRunning')
              : t('manufacture.bridge.waiting')
          }
          data-testid="pairing-state"
        />
      )}
    </Space>
  );
}

/**
 * Plugin registration: a one-time code from the server, typed into the bridge (which
 * verifies it with the server); meanwhile the page offers the same code to the bridge
 * until it is accepted, then keeps the bridge's token.
 */
export function PairingModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [round, setRound] = useState(0);
  const paired = () => {
    void message.success(t('manufacture.bridge.pairedOk'));
    onClose();
  };
  return (
    <Modal
      open={open}
      title={t('manufacture.bridge.register')}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('common.cancel')}</Button>}
      destroyOnHidden
    >
      {open ? (
        <PairingBody key={round} onPaired={paired} onNewCode={() => setRound((r) => r + 1)} />
      ) : null}
    </Modal>
  );
}
