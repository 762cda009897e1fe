import type { Dispatch, SetStateAction } from 'react';
import type { TablePaginationConfig } from 'antd';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';

export interface LogPaging {
  page: number;
  pageSize: number;
}

/** The paging of the lift page's log tables (run log, logbook): a new page size starts at page 1. */
export function logPagination(
  paging: LogPaging,
  setPaging: Dispatch<SetStateAction<LogPaging>>,
  total: number,
  t: TFunction,
): TablePaginationConfig {
  return {
    current: paging.page,
    pageSize: paging.pageSize,
    total,
    showSizeChanger: true,
    pageSizeOptions: [20, 50, 100, 200],
    showTotal: (n) => t('common.total', { total: n }),
    onChange: (page, pageSize) =>
      setPaging((p) => ({ page: pageSize !== p.pageSize ? 1 : page, pageSize })),
  };
}

/** A log entry's time on a phone: the date above the time, so the column stays narrow. */
export function CompactTime({ ts, className }: { ts: string; className: string }) {
  return (
    <span className={className}>
      {dayjs(ts).format('MM-DD')}
      <br />
      {dayjs(ts).format('HH:mm:ss')}
    </span>
  );
}
