import { useState } from 'react';
import { App, Button, Form, Input, Modal } from 'antd';
import {
  CarOutlined,
  CheckCircleOutlined,
  CheckOutlined,
  CloseCircleOutlined,
  EnvironmentOutlined,
  RollbackOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  incidentTransitionSchema,
  type IncidentState,
  type IncidentView,
} from '@liftlink/protocol';
import { showError } from '../../../lib/form-errors.ts';
import { tx } from '../../../lib/i18n/i18n.ts';
import { zodRule } from '../../../lib/zod-rule.ts';
import { incidentsApi, useIncidentMutation } from '../api/incidents-api.ts';
import { isSetback, nextSteps } from '../model/incident-steps.ts';
import { ResolveModal } from './resolve-modal.tsx';

const ICONS: Partial<Record<IncidentState, React.ReactNode>> = {
  acknowledged: <CheckOutlined />,
  enRoute: <CarOutlined />,
  onSite: <EnvironmentOutlined />,
  resolved: <CheckCircleOutlined />,
  closed: <SafetyCertificateOutlined />,
  cancelled: <CloseCircleOutlined />,
};

/** The button's words: the same target reads "turn back" when it is a step back. */
function actionKey(from: IncidentState, to: IncidentState): string {
  return from === 'enRoute' && to === 'acknowledged'
    ? 'incident.action.turnBack'
    : `incident.action.${to}`;
}

/**
 * The next steps the incident's state allows, as big buttons (one hand, a glove): the way
 * forward first. A step that needs a technician is disabled and says so beneath. Resolving
 * asks for the resolution; a step back or cancelling asks to confirm, with an optional note.
 */
export function IncidentActions({ incident }: { incident: IncidentView }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const transition = useIncidentMutation(incidentsApi.transition);
  const [resolving, setResolving] = useState(false);
  const [confirming, setConfirming] = useState<IncidentState | null>(null);
  const [noteForm] = Form.useForm<{ note?: string }>();
  const steps = nextSteps(incident);
  if (steps.length === 0) return null;

  const go = (to: IncidentState, note?: string) =>
    transition.mutateAsync({ id: incident.id, to, ...(note ? { note } : {}) }).then(
      () => {
        void message.success(t('incident.moved', { state: t(`incident.state.${to}`) }));
        return true;
      },
      (error: unknown) => {
        showError(message, error);
        return false;
      },
    );

  const press = (to: IncidentState) => {
    if (to === 'resolved') setResolving(true);
    else if (isSetback(incident.state, to)) {
      noteForm.resetFields();
      setConfirming(to);
    } else void go(to);
  };

  return (
    <div className="incident-actions" data-testid="incident-actions">
      {steps.map(({ to, blockedBy }) => (
        <div
          key={to}
          className={
            isSetback(incident.state, to)
              ? 'incident-action incident-action-setback'
              : 'incident-action'
          }
        >
          <Button
            block
            size="large"
            type={isSetback(incident.state, to) ? 'default' : 'primary'}
            danger={to === 'cancelled'}
            icon={
              incident.state === 'enRoute' && to === 'acknowledged' ? (
                <RollbackOutlined />
              ) : (
                ICONS[to]
              )
            }
            disabled={
              blockedBy !== null || (transition.isPending && transition.variables?.to !== to)
            }
            loading={transition.isPending && transition.variables?.to === to}
            onClick={() => press(to)}
            data-testid={`incident-step-${to}`}
          >
            {tx(actionKey(incident.state, to))}
          </Button>
          {blockedBy ? (
            <div className="incident-action-reason" data-testid={`incident-step-${to}-reason`}>
              {t(`incident.blocked.${blockedBy}`)}
            </div>
          ) : null}
        </div>
      ))}
      <ResolveModal
        open={resolving}
        incident={incident}
        onClose={() => setResolving(false)}
        save={(resolution) =>
          transition.mutateAsync({ id: incident.id, to: 'resolved', ...resolution })
        }
      />
      <Modal
        open={confirming !== null}
        title={confirming ? tx(`${actionKey(incident.state, confirming)}.confirm`) : null}
        okText={confirming ? tx(actionKey(incident.state, confirming)) : null}
        okButtonProps={{
          danger: confirming === 'cancelled',
          size: 'large',
          'data-testid': 'incident-confirm-ok',
        }}
        cancelButtonProps={{ size: 'large' }}
        cancelText={t('common.cancel')}
        confirmLoading={transition.isPending}
        onCancel={() => setConfirming(null)}
        onOk={async () => {
          const values = await noteForm.validateFields().catch(() => null);
          if (!values || !confirming) return;
          if (await go(confirming, values.note?.trim() || undefined)) setConfirming(null);
        }}
        forceRender
        data-testid="incident-confirm"
      >
        <Form form={noteForm} layout="vertical">
          <Form.Item
            name="note"
            label={t('incident.field.stepNote')}
            rules={[zodRule(incidentTransitionSchema.shape.note)]}
          >
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 5 }}
              data-testid="incident-confirm-note"
            />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}
