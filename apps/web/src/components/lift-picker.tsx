import { useState } from 'react';
import { Select, Spin } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { liftKeys, searchLifts } from '../lib/lifts.ts';

/** Picks one lift by device number, name or address (server search, first 20 matches). */
export function LiftPicker({
  value,
  onChange,
  testId,
  placeholder,
}: {
  value: string | null;
  onChange: (liftId: string | null) => void;
  testId?: string;
  /** Instead of "all lifts" where the picker chooses one lift rather than filtering. */
  placeholder?: string;
}) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const search = useQuery({
    queryKey: liftKeys.search(keyword),
    queryFn: ({ signal }) => searchLifts(keyword, signal),
    staleTime: 30_000,
  });
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      allowClear
      value={value}
      placeholder={placeholder ?? t('lift.picker.placeholder')}
      onChange={(id?: string | null) => onChange(id ?? null)}
      notFoundContent={search.isFetching ? <Spin size="small" /> : t('lift.list.empty')}
      options={(search.data?.list ?? []).map((lift) => ({
        value: lift.id,
        label: [lift.deviceNo ?? t('lift.noDeviceNo'), lift.alias].filter(Boolean).join(' · '),
      }))}
      popupMatchSelectWidth={false}
      style={{ minWidth: 200 }}
      aria-label={t('lift.picker.label')}
      data-testid={testId}
    />
  );
}
