import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FirmwarePackageState } from '../api/firmware-api.ts';

const COLORS: Record<FirmwarePackageState, string> = {
  uploading: 'gold',
  ready: 'success',
  withdrawn: 'default',
};

export function PackageStateTag({ state }: { state: FirmwarePackageState }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[state]} className="firmware-state" data-testid={`firmware-state-${state}`}>
      {t(`firmware.state.${state}`)}
    </Tag>
  );
}
