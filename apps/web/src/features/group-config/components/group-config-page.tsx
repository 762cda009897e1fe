import { useRef, useState } from 'react';
import { Alert, Card, Form, Steps } from 'antd';
import { useTranslation } from 'react-i18next';
import type {
  GroupConfigChanges,
  GroupConfigPreviewLift,
  GroupConfigSelection,
} from '@liftlink/protocol';
import { PageContainer } from '../../../components/page-container.tsx';
import { useAccess } from '../../../lib/access.tsx';
import { newIdempotencyKey } from '../../../lib/idempotency-key.ts';
import { useGroupOptions, usePreview, useSendGroup } from '../api/group-config-api.ts';
import {
  changesOf,
  reviewedVersions,
  selectionOf,
  type SelectionValues,
} from '../model/group-config.ts';
import { ChangesStep, type ChangeValues } from './changes-step.tsx';
import { RecentSends } from './recent-sends.tsx';
import { ReviewStep } from './review-step.tsx';
import { SelectionStep } from './selection-step.tsx';
import { SendResults } from './send-results.tsx';
import './group-config.css';

type Step = 0 | 1 | 2 | 3;

/** What the review was made of: the send carries exactly this back. */
interface Reviewed {
  selection: GroupConfigSelection;
  changes: GroupConfigChanges;
  lifts: GroupConfigPreviewLift[];
  /** One key per review: a second click on "send" is the same send. */
  idempotencyKey: string;
}

/**
 * Group configuration (docs/group-config.md): select lifts, change fields once, review each
 * lift's difference, send and watch each lift's answer live. Only configuration is sent.
 */
export default function GroupConfigPage() {
  const { t } = useTranslation();
  const can = useAccess();
  const [step, setStep] = useState<Step>(0);
  const [selectionForm] = Form.useForm<SelectionValues>();
  const [changesForm] = Form.useForm<ChangeValues>();
  const [reviewed, setReviewed] = useState<Reviewed | null>(null);
  const [sendId, setSendId] = useState<string | null>(null);
  const options = useGroupOptions();
  const preview = usePreview();
  const sender = useSendGroup();
  const top = useRef<HTMLDivElement>(null);
  const go = (next: Step) => {
    setStep(next);
    top.current?.scrollIntoView?.({ block: 'start' });
  };

  const review = () => {
    const values = changesForm.getFieldsValue(true);
    const selection = selectionOf(selectionForm.getFieldsValue(true));
    const changes = changesOf(values.fields ?? [], values);
    preview.mutate(
      { selection, changes },
      {
        onSuccess: (answer) => {
          setReviewed({
            selection,
            changes,
            lifts: answer.lifts,
            idempotencyKey: newIdempotencyKey(),
          });
          go(2);
        },
      },
    );
  };
  const send = () => {
    if (!reviewed) return;
    sender.mutate(
      {
        idempotencyKey: reviewed.idempotencyKey,
        selection: reviewed.selection,
        changes: reviewed.changes,
        versions: reviewedVersions(reviewed.lifts),
      },
      {
        onSuccess: (answer) => {
          setSendId(answer.id);
          go(3);
        },
      },
    );
  };
  const restart = () => {
    setReviewed(null);
    setSendId(null);
    preview.reset();
    sender.reset();
    go(0);
  };
  const open = (id: string) => {
    setSendId(id);
    go(3);
  };

  return (
    <PageContainer title={t('menu.cloud.groupConfig')}>
      <div className="group-config-page" ref={top}>
        <Card className="group-config-card">
          <Steps
            current={step}
            size="small"
            className="group-config-steps"
            items={[
              { title: t('groupConfig.step.select') },
              { title: t('groupConfig.step.changes') },
              { title: t('groupConfig.step.review') },
              { title: t('groupConfig.step.send') },
            ]}
          />
          {!can('liftConfig.edit') ? (
            <Alert
              type="info"
              showIcon
              title={t('groupConfig.readOnly')}
              className="group-config-alert"
            />
          ) : null}
          <div hidden={step !== 0}>
            <SelectionStep
              form={selectionForm}
              options={options.data}
              loading={options.isPending}
              error={options.error}
              onRetry={() => void options.refetch()}
              onNext={() => go(1)}
            />
          </div>
          <div hidden={step !== 1}>
            <ChangesStep
              form={changesForm}
              loading={preview.isPending}
              error={preview.error}
              onBack={() => go(0)}
              onReview={review}
            />
          </div>
          {step === 2 && reviewed ? (
            <ReviewStep
              lifts={reviewed.lifts}
              sending={sender.isPending}
              error={sender.error}
              canSend={can('liftConfig.edit')}
              onBack={() => go(1)}
              onSend={send}
            />
          ) : null}
          {step === 3 && sendId ? <SendResults id={sendId} onNew={restart} /> : null}
        </Card>
        <Card title={t('groupConfig.recent.title')} className="group-config-card">
          <RecentSends onOpen={open} />
        </Card>
      </div>
    </PageContainer>
  );
}
