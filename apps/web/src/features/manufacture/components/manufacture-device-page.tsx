import { ComingSoon } from '../../../components/coming-soon.tsx';

/** Placeholder until the lift screens land (their own issue replaces this page). */
export default function ManufactureDevicePage() {
  return <ComingSoon titleKey="menu.equipment.device" />;
}
