import { App, Button, Grid, Popconfirm, Space, Table, Typography, Upload } from 'antd';
import { StopOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { ColumnsType } from 'antd/es/table/interface';
import { FIRMWARE_MAX_BYTES } from '@liftlink/protocol';
import { useAccess } from '../../../lib/access.tsx';
import { showError } from '../../../lib/form-errors.ts';
import { LANGUAGE_LABELS, useLanguage } from '../../../lib/i18n/language.ts';
import {
  firmwareApi,
  useRefreshPackages,
  useWithdrawPackage,
  type FirmwarePackage,
} from '../api/firmware-api.ts';
import { formatBytes, imageProblem, notesFor, shortHash } from '../model/package-model.ts';
import { PackageStateTag } from './package-state-tag.tsx';

const TIME = 'YYYY-MM-DD HH:mm';

/**
 * The packages: on a desktop one column per fact, on a phone one cell per package; the
 * release notes in the user's language open below a row.
 */
export function PackageTable({
  packages,
  loading,
  emptyText,
}: {
  packages: FirmwarePackage[];
  loading: boolean;
  emptyText: string;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { message } = App.useApp();
  const can = useAccess();
  const phone = Grid.useBreakpoint().md === false;
  const refresh = useRefreshPackages();
  const withdraw = useWithdrawPackage();
  const upload = useMutation({
    mutationFn: ({ id, file }: { id: string; file: File }) => firmwareApi.upload(id, file),
    onSettled: () => refresh(),
  });

  const uploadImage = (pkg: FirmwarePackage, file: File) => {
    const problem = imageProblem(file);
    if (problem) {
      void message.error(
        t(`firmware.image.${problem}`, { max: formatBytes(FIRMWARE_MAX_BYTES, language) }),
      );
      return;
    }
    upload.mutate(
      { id: pkg.id, file },
      {
        onSuccess: () => void message.success(t('firmware.uploaded')),
        onError: (error) => showError(message, error),
      },
    );
  };

  const kinds = (p: FirmwarePackage) => (
    <span className="firmware-kinds">
      {p.kinds.map((kind) => (
        <span key={kind}>{t(`device.kind.${kind}`)}</span>
      ))}
    </span>
  );
  const size = (p: FirmwarePackage) => (p.size === null ? '—' : formatBytes(p.size, language));
  const hash = (p: FirmwarePackage) =>
    p.sha256 ? (
      <Typography.Text
        code
        copyable={{ text: p.sha256 }}
        title={p.sha256}
        data-testid={`firmware-sha-${p.id}`}
      >
        {shortHash(p.sha256)}
      </Typography.Text>
    ) : (
      '—'
    );
  const created = (p: FirmwarePackage) =>
    t('firmware.byAt', { user: p.createdByName, time: dayjs(p.createdAt).format(TIME) });
  const withdrawn = (p: FirmwarePackage) =>
    p.withdrawnAt
      ? t('firmware.byAt', {
          user: p.withdrawnByName ?? '—',
          time: dayjs(p.withdrawnAt).format(TIME),
        })
      : '—';

  const actions = (p: FirmwarePackage) => (
    <Space size={4} wrap>
      {p.state === 'uploading' && can('firmware.add') ? (
        <Upload
          showUploadList={false}
          beforeUpload={(file) => {
            uploadImage(p, file);
            return false;
          }}
        >
          <Button
            size="small"
            icon={<UploadOutlined />}
            loading={upload.isPending && upload.variables.id === p.id}
            aria-label={`${t('firmware.upload')} ${p.version}`}
          >
            {t('firmware.upload')}
          </Button>
        </Upload>
      ) : null}
      {p.state !== 'withdrawn' && can('firmware.delete') ? (
        <Popconfirm
          title={t('firmware.withdrawConfirm', { version: p.version })}
          okText={t('firmware.withdraw')}
          okButtonProps={{ danger: true }}
          cancelText={t('common.cancel')}
          onConfirm={() =>
            withdraw.mutateAsync(p.id).then(
              () => void message.success(t('firmware.withdrawDone')),
              (error: unknown) => showError(message, error),
            )
          }
        >
          <Button
            size="small"
            danger
            icon={<StopOutlined />}
            aria-label={`${t('firmware.withdraw')} ${p.version}`}
          >
            {t('firmware.withdraw')}
          </Button>
        </Popconfirm>
      ) : null}
    </Space>
  );
  const hasActions = can('firmware.add') || can('firmware.delete');

  const desktop: ColumnsType<FirmwarePackage> = [
    {
      key: 'version',
      title: t('firmware.version'),
      render: (_, p) => (
        <div className="firmware-stack">
          <Typography.Text strong>{p.version}</Typography.Text>
          <span className="lift-muted">{p.orgName}</span>
        </div>
      ),
    },
    { key: 'kinds', title: t('firmware.kinds'), render: (_, p) => kinds(p) },
    { key: 'minVersion', title: t('firmware.minVersion'), dataIndex: 'minVersion' },
    { key: 'size', title: t('firmware.size'), render: (_, p) => size(p) },
    { key: 'sha256', title: t('firmware.sha256'), render: (_, p) => hash(p) },
    {
      key: 'state',
      title: t('firmware.state'),
      render: (_, p) => <PackageStateTag state={p.state} />,
    },
    { key: 'created', title: t('firmware.created'), render: (_, p) => created(p) },
    { key: 'withdrawn', title: t('firmware.withdrawnInfo'), render: (_, p) => withdrawn(p) },
    ...(hasActions
      ? [
          {
            key: 'actions',
            title: t('common.actions'),
            render: (_: unknown, p: FirmwarePackage) => actions(p),
          },
        ]
      : []),
  ];
  const compact: ColumnsType<FirmwarePackage> = [
    {
      key: 'package',
      title: t('firmware.listTitle'),
      render: (_, p) => (
        <div className="firmware-stack">
          <div className="firmware-line">
            <Typography.Text strong>{p.version}</Typography.Text>
            <PackageStateTag state={p.state} />
          </div>
          {kinds(p)}
          <span className="lift-muted">
            {t('firmware.minVersion')}: {p.minVersion} · {t('firmware.size')}: {size(p)}
          </span>
          {p.sha256 ? <span>{hash(p)}</span> : null}
          <span className="lift-muted">
            {t('firmware.created')}: {created(p)}
          </span>
          {p.withdrawnAt ? (
            <span className="lift-muted">
              {t('firmware.withdrawnInfo')}: {withdrawn(p)}
            </span>
          ) : null}
          {hasActions ? actions(p) : null}
        </div>
      ),
    },
  ];

  return (
    <Table<FirmwarePackage>
      rowKey="id"
      size="small"
      className="firmware-table"
      loading={loading}
      dataSource={packages}
      columns={phone ? compact : desktop}
      scroll={phone ? undefined : { x: 'max-content' }}
      locale={{ emptyText }}
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
      expandable={{
        expandedRowRender: (p) => {
          const notes = notesFor(p, language);
          if (!notes)
            return <Typography.Text type="secondary">{t('firmware.noNotes')}</Typography.Text>;
          return (
            <div className="firmware-notes" data-testid={`firmware-notes-${p.id}`}>
              <Typography.Text type="secondary">
                {t('firmware.notes')}
                {notes.language === language
                  ? null
                  : ` ${t('firmware.notesIn', { language: LANGUAGE_LABELS[notes.language] })}`}
              </Typography.Text>
              <Typography.Paragraph className="firmware-notes-text">
                {notes.text}
              </Typography.Paragraph>
            </div>
          );
        },
      }}
    />
  );
}
