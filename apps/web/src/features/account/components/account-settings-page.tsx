import { ComingSoon } from '../../../components/coming-soon.tsx';

export default function Page() {
  return <ComingSoon titleKey="menu.account" />;
}
