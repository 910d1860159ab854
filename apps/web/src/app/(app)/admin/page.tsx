import type { Metadata } from 'next';
import { InstanceView } from '../../../features/admin/instance-view';

export const metadata: Metadata = { title: 'Instance' };

export default function InstancePage() {
  return <InstanceView />;
}
