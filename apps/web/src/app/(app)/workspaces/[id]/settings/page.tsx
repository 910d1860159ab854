import type { Metadata } from 'next';
import { SettingsView } from '../../../../../features/settings/settings-view';

export const metadata: Metadata = { title: 'Settings' };

export default async function WorkspaceSettingsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <SettingsView workspaceId={id} />;
}
