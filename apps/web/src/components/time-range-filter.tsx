import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';

/** A from / to filter, either end open; times travel as ISO strings. */
export function TimeRangeFilter({
  from,
  to,
  onChange,
  className,
  ariaLabel,
}: {
  from: string | null;
  to: string | null;
  onChange: (range: { from: string | null; to: string | null }) => void;
  className?: string;
  ariaLabel?: string;
}) {
  const value: [Dayjs | null, Dayjs | null] | null =
    from || to ? [from ? dayjs(from) : null, to ? dayjs(to) : null] : null;
  return (
    <DatePicker.RangePicker
      showTime
      allowEmpty={[true, true]}
      value={value}
      onChange={(dates) =>
        onChange({
          from: dates?.[0]?.toISOString() ?? null,
          to: dates?.[1]?.toISOString() ?? null,
        })
      }
      className={className}
      aria-label={ariaLabel}
    />
  );
}
