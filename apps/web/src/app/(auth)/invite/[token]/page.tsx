import type { Metadata } from 'next';
import { InviteView } from './invite-view';

// The token is in this page's address: keep it out of Referer headers to other sites.
export const metadata: Metadata = { title: 'Invitation', referrer: 'no-referrer' };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return <InviteView token={token} />;
}
