import { Alert, Button, Space, Table, Tag } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import {
  GROUP_CONFIG_LIFT_STATES,
  type GroupConfigSend,
  type GroupConfigSendLift,
} from '@liftlink/protocol';
import { DataState } from '../../../components/charts/data-state.tsx';
import { fieldLabel, valueText } from '../../../lib/config-model.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { groupConfigKeys, useGroupSend } from '../api/group-config-api.ts';
import { applyLive, reasonText, sendFinished, STATE_COLORS } from '../model/group-config.ts';
import { StepFooter } from './step-footer.tsx';
import { useGroupLive } from './use-group-live.ts';

/** Step 4: each lift's state of a send, live: done, refused with its reason, offline, skipped. */
export function SendResults({ id, onNew }: { id: string; onNew: () => void }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const client = useQueryClient();
  const query = useGroupSend(id, sendFinished);
  const send = query.data;
  useGroupLive(send?.lifts.map((l) => l.liftId) ?? [], (message) =>
    client.setQueryData<GroupConfigSend>(groupConfigKeys.send(id), (old) =>
      old ? applyLive(old, message) : old,
    ),
  );
  return (
    <DataState
      loading={query.isPending}
      error={query.error}
      empty={false}
      onRetry={() => void query.refetch()}
    >
      {send ? (
        <div data-testid="group-results">
          <Alert
            type={sendFinished(send) ? 'success' : 'info'}
            showIcon
            className="group-config-alert"
            title={t(
              sendFinished(send) ? 'groupConfig.results.finished' : 'groupConfig.results.running',
            )}
            description={
              <div>
                <div>
                  {t('groupConfig.results.sentBy', {
                    user: send.username,
                    time: dayjs(send.createdAt).format('YYYY-MM-DD HH:mm'),
                  })}
                </div>
                <div>
                  {Object.entries(send.changes)
                    .map(([key, value]) => `${fieldLabel(key)} → ${valueText(key, value)}`)
                    .join('; ')}
                </div>
              </div>
            }
          />
          <Space wrap className="group-config-counts" data-testid="group-counts">
            {GROUP_CONFIG_LIFT_STATES.filter((s) => send.counts[s] > 0).map((s) => (
              <Tag key={s} color={STATE_COLORS[s]}>
                {t(`groupConfig.state.${s}`)}: {send.counts[s]}
              </Tag>
            ))}
          </Space>
          <Table<GroupConfigSendLift>
            rowKey="liftId"
            size="small"
            pagination={send.lifts.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
            dataSource={send.lifts}
            data-testid="group-results-table"
            columns={[
              {
                key: 'lift',
                title: t('groupConfig.col.lift'),
                render: (_, l) => (
                  <div>
                    <div className="group-config-device">{l.deviceNo ?? '—'}</div>
                    {l.alias ? <div className="lift-muted">{l.alias}</div> : null}
                  </div>
                ),
              },
              {
                key: 'state',
                title: t('groupConfig.col.state'),
                render: (_, l) => (
                  <div data-testid={`group-state-${l.deviceNo}`} data-state={l.state}>
                    <Tag color={STATE_COLORS[l.state]}>{t(`groupConfig.state.${l.state}`)}</Tag>
                    {l.reason ? (
                      <div className="group-config-reason">{reasonText(l.reason, language)}</div>
                    ) : null}
                  </div>
                ),
              },
            ]}
          />
          <StepFooter>
            <Button type="primary" onClick={onNew} data-testid="group-new">
              {t('groupConfig.results.new')}
            </Button>
          </StepFooter>
        </div>
      ) : null}
    </DataState>
  );
}
