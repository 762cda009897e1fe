import { Button, List, Space, Tag } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { GROUP_CONFIG_LIFT_STATES } from '@liftlink/protocol';
import { DataState } from '../../../components/charts/data-state.tsx';
import { fieldLabel } from '../../../lib/config-model.ts';
import { useRecentSends } from '../api/group-config-api.ts';
import { STATE_COLORS } from '../model/group-config.ts';

/** The user's recent group sends with their counts; one opens its results. */
export function RecentSends({ onOpen }: { onOpen: (id: string) => void }) {
  const { t } = useTranslation();
  const query = useRecentSends();
  const list = query.data?.list ?? [];
  return (
    <DataState
      loading={query.isPending}
      error={query.error}
      empty={list.length === 0}
      emptyText={t('groupConfig.recent.empty')}
      onRetry={() => void query.refetch()}
    >
      <List
        size="small"
        dataSource={list}
        data-testid="group-recent"
        renderItem={(send) => (
          <List.Item
            actions={[
              <Button
                key="open"
                size="small"
                onClick={() => onOpen(send.id)}
                data-testid={`group-recent-open-${send.id}`}
              >
                {t('groupConfig.recent.open')}
              </Button>,
            ]}
          >
            <div className="group-config-recent">
              <div>
                {dayjs(send.createdAt).format('YYYY-MM-DD HH:mm')} · {send.username}
              </div>
              <div className="lift-muted">
                {Object.keys(send.changes).map(fieldLabel).join(', ')}
              </div>
              <Space wrap size={4}>
                {GROUP_CONFIG_LIFT_STATES.filter((s) => send.counts[s] > 0).map((s) => (
                  <Tag key={s} color={STATE_COLORS[s]}>
                    {t(`groupConfig.state.${s}`)}: {send.counts[s]}
                  </Tag>
                ))}
              </Space>
            </div>
          </List.Item>
        )}
      />
    </DataState>
  );
}
