import { useState } from 'react';
import { App, Button, Drawer, Empty, Select, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OrgView } from '@liftlink/protocol';
import { Access } from '../../../lib/access.tsx';
import { errorMessage } from '../../../lib/form-errors.ts';
import { hasKey, tx } from '../../../lib/i18n/i18n.ts';
import { systemApi, useLiftSearch, useOrgLifts, useSystemMutation } from '../api/system-api.ts';

const kindLabel = (kind: string) =>
  hasKey(`device.kind.${kind}`) ? tx(`device.kind.${kind}`) : kind;

/** Which lifts an operator organization holds; add or remove lifts. */
export function OrgLiftsDrawer({ org, onClose }: { org: OrgView | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const lifts = useOrgLifts(org?.id ?? null);
  const [keyword, setKeyword] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const search = useLiftSearch(keyword, org !== null);
  const assign = useSystemMutation((body: { orgId: string | null; liftIds: string[] }) =>
    systemApi.orgAction('assign-lifts', body),
  );
  const held = new Set((lifts.data?.list ?? []).map((l) => l.id));

  const change = (orgId: string | null, liftIds: string[]) =>
    assign.mutate(
      { orgId, liftIds },
      {
        onSuccess: () => {
          setPicked([]);
          void message.success(t('common.saved'));
        },
        onError: (error) => {
          const text = errorMessage(error);
          if (text) void message.error(text);
        },
      },
    );

  return (
    <Drawer
      open={org !== null}
      onClose={onClose}
      size={640}
      title={t('system.org.liftsOf', { name: org?.name ?? '' })}
      destroyOnHidden
    >
      <Access check="org.edit">
        <Space.Compact style={{ width: '100%', marginBottom: 16 }}>
          <Select
            mode="multiple"
            showSearch={{ filterOption: false, onSearch: setKeyword }}
            value={picked}
            onChange={setPicked}
            loading={search.isFetching}
            placeholder={t('system.org.pickLifts')}
            notFoundContent={search.isError ? errorMessage(search.error) : undefined}
            style={{ flex: 1, minWidth: 0 }}
            options={(search.data?.list ?? [])
              .filter((lift) => !held.has(lift.id))
              .map((lift) => ({
                value: lift.id,
                label: `${lift.deviceNo ?? '—'} · ${lift.alias || kindLabel(lift.kind)}`,
              }))}
          />
          <Button
            type="primary"
            disabled={picked.length === 0 || !org}
            loading={assign.isPending}
            onClick={() => org && change(org.id, picked)}
          >
            {t('system.org.assign')}
          </Button>
        </Space.Compact>
      </Access>
      <Table
        rowKey="id"
        size="small"
        loading={lifts.isFetching}
        dataSource={lifts.data?.list ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: <Empty description={t('system.org.noLifts')} /> }}
        columns={[
          {
            key: 'deviceNo',
            title: t('qrcode.deviceNo'),
            render: (_v, lift) => lift.deviceNo ?? '—',
          },
          { key: 'alias', title: t('qrcode.alias'), render: (_v, lift) => lift.alias || '—' },
          { key: 'kind', title: t('qrcode.kind'), render: (_v, lift) => kindLabel(lift.kind) },
          {
            key: 'actions',
            title: t('common.actions'),
            render: (_v, lift) => (
              <Access check="org.edit">
                <Button size="small" type="link" danger onClick={() => change(null, [lift.id])}>
                  {t('system.org.unassign')}
                </Button>
              </Access>
            ),
          },
        ]}
      />
    </Drawer>
  );
}
